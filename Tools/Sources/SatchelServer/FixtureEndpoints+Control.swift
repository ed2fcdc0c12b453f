// SPDX-License-Identifier: Apache-2.0
import Satchel

extension FixtureEndpoints {
    /// `/status/N`: status N (200–599); from 400 on with a problem body, otherwise empty.
    func status(_ argument: String) -> FixtureResponse {
        guard let code = Self.number(argument, maximum: 599), code >= 200 else {
            return .problem(status: 400, detail: "/status/N needs N from 200 to 599, not \"\(argument)\"")
        }
        let status = Int(code)
        if status >= 400 { return .problem(status: status, detail: "you asked for status \(status)") }
        return FixtureResponse(status: status)
    }

    /// `/redirect/N`: 302 to `/redirect/N-1`, and from `/redirect/1` to `/get`.
    func redirect(_ argument: String) -> FixtureResponse {
        guard let count = Self.number(argument, maximum: Int64(configuration.maxRedirects)), count >= 1 else {
            return .problem(
                status: 400, detail: "/redirect/N needs N from 1 to \(configuration.maxRedirects), not \"\(argument)\"")
        }
        let location = count == 1 ? "/get" : "/redirect/\(count - 1)"
        return FixtureResponse(status: 302, headers: [.init(name: "Location", value: location)])
    }

    /// `/delay/S`: the echo of the request after S seconds (a decimal such as `0.5`), at most
    /// the configured cap (longer asks wait the cap).
    func delay(_ argument: String, request: FixtureRequest) -> FixtureResponse {
        guard argument.count <= 12, argument.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }),
            let seconds = Double(argument), seconds.isFinite, seconds >= 0
        else {
            return .problem(status: 400, detail: "/delay/S needs S as seconds, such as 1 or 0.5, not \"\(argument)\"")
        }
        var response = echo(request)
        let capped = min(seconds, Double(configuration.maxDelaySeconds))
        response.delay = .milliseconds(Int64((capped * 1000).rounded()))
        return response
    }
}
