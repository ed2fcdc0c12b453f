// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import Transport

@Suite struct CurlGlobalTests {
    @Test func libcurlInitialisesAndReportsItsVersion() {
        #expect(CurlGlobal.initialised.rawValue == 0)
        #expect(CurlGlobal.version.hasPrefix("libcurl/"))
    }
}
