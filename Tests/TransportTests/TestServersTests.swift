// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Transport tests' servers (scripts/test-servers.py) do what those tests rely on, checked
/// with FoundationNetworking's URLSession, Python's requests and ssl, and the openssl CLI.
@Suite struct TestServersTests {
    @Test func httpbinAnswersOverPlainHTTP() async throws {
        let servers = try TestServers.shared()
        let (data, response) = try await fetch(URLRequest(url: try #require(URL(string: "\(servers.httpbin)/get?x=1"))))
        #expect(response.statusCode == 200)
        let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((body["args"] as? [String: String]) == ["x": "1"])
    }

    @Test func tlsServersVerifyOnlyWithTheRightCAHostAndDate() throws {
        let servers = try TestServers.shared()
        let script = """
            import json, socket, ssl, sys, requests
            ca_a, ca_b, good, expired, wrong = sys.argv[1:]
            def get(url, ca):
                try:
                    return str(requests.get(url + "/get", verify=ca, timeout=10).status_code)
                except requests.exceptions.SSLError as error:
                    return str(error)
            def handshake_ignoring_host_name(url, ca):
                host, port = url.rsplit("/", 1)[-1].split(":")
                context = ssl.create_default_context(cafile=ca)
                context.check_hostname = False
                with socket.create_connection((host, int(port)), timeout=10) as raw, context.wrap_socket(raw):
                    return "ok"
            print(json.dumps({
                "goodWithA": get(good, ca_a), "goodWithB": get(good, ca_b),
                "expiredWithA": get(expired, ca_a), "wrongHostWithA": get(wrong, ca_a),
                "wrongHostIgnoringName": handshake_ignoring_host_name(wrong, ca_a),
            }))
            """
        let run = try VenvPython.run(
            script,
            [
                servers.certificates.caA.path, servers.certificates.caB.path, servers.httpbinTLS.absoluteString,
                servers.expiredTLS.absoluteString, servers.wrongHostTLS.absoluteString,
            ])
        try #require(run.status == 0)
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: String])
        #expect(results["goodWithA"] == "200")
        #expect(results["goodWithB"]?.contains("unable to get local issuer certificate") == true, "\(results)")
        #expect(results["expiredWithA"]?.contains("certificate has expired") == true, "\(results)")
        #expect(
            results["wrongHostWithA"]?.contains("mismatch, certificate is not valid for '127.0.0.1'") == true,
            "\(results)")
        #expect(results["wrongHostIgnoringName"] == "ok")
    }

    @Test func pinsEqualOpenSSLsDigestOfEachPublicKey() throws {
        let servers = try TestServers.shared()
        let files = servers.certificates
        let pins = servers.pins
        for (file, pin) in [
            (files.caA, pins.caA), (files.caB, pins.caB), (files.good, pins.good),
            (files.expired, pins.expired), (files.wrongHost, pins.wrongHost),
        ] {
            let pipeline = """
                openssl x509 -in "$1" -pubkey -noout | openssl pkey -pubin -outform der \
                | openssl dgst -sha256 -binary | base64
                """
            let run = try VenvPython.execute("/bin/sh", ["-c", pipeline, "sh", file.path])
            #expect(run.status == 0)
            #expect(run.output.trimmingCharacters(in: .whitespacesAndNewlines) == pin, "\(file.lastPathComponent)")
        }
        #expect(Set([pins.caA, pins.caB, pins.good, pins.expired, pins.wrongHost]).count == 5)
        #expect(TestServers.curlPin(pins.good, pins.caA) == "sha256//\(pins.good);sha256//\(pins.caA)")
    }

    @Test func largeServesRangesOnlyWhileIfRangeMatches() async throws {
        let servers = try TestServers.shared()
        let url = servers.fast.appendingPathComponent("large/1000000")
        let expected = (0..<1_000_000).map(TestServers.largeByte(at:))

        let (whole, wholeResponse) = try await fetch(URLRequest(url: url))
        #expect(wholeResponse.statusCode == 200)
        #expect(Array(whole) == expected)
        let etag = try #require(wholeResponse.value(forHTTPHeaderField: "ETag"))
        let lastModified = try #require(wholeResponse.value(forHTTPHeaderField: "Last-Modified"))

        for validator in [nil, etag, lastModified] {
            var request = URLRequest(url: url)
            request.setValue("bytes=999000-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
            let (tail, response) = try await fetch(request)
            #expect(response.statusCode == 206)
            #expect(response.value(forHTTPHeaderField: "Content-Range") == "bytes 999000-999999/1000000")
            #expect(Array(tail) == Array(expected[999_000...]))
        }
        for validator in ["\"other\"", "Thu, 01 Jan 1970 00:00:00 GMT"] {
            var request = URLRequest(url: url)
            request.setValue("bytes=999000-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
            let (body, response) = try await fetch(request)
            #expect(response.statusCode == 200)
            #expect(body.count == 1_000_000)
        }
        var changed = URLRequest(url: try #require(URL(string: "\(url)?etag=v2")))
        changed.setValue("bytes=10-", forHTTPHeaderField: "Range")
        changed.setValue(etag, forHTTPHeaderField: "If-Range")
        let (_, changedResponse) = try await fetch(changed)
        #expect(changedResponse.statusCode == 200)
        #expect(changedResponse.value(forHTTPHeaderField: "ETag") == "\"v2\"")

        var beyond = URLRequest(url: url)
        beyond.setValue("bytes=1000000-", forHTTPHeaderField: "Range")
        let (_, beyondResponse) = try await fetch(beyond)
        #expect(beyondResponse.statusCode == 416)
    }

    @Test func discardCountsAndHashesBodiesWithAndWithoutContentLength() async throws {
        let servers = try TestServers.shared()
        var request = URLRequest(url: servers.fast.appendingPathComponent("discard"))
        request.httpMethod = "POST"
        let (data, response) = try await upload(request, Data(count: 3 << 20))
        #expect(response.statusCode == 200)
        let answer = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(answer["bytes"] as? Int == 3 << 20)
        #expect(answer["chunked"] as? Bool == false)

        let script = """
            import hashlib, json, sys, requests
            body = bytes(range(256)) * 10000 + b"tail"
            def chunks():
                for start in range(0, len(body), 65536):
                    yield body[start:start + 65536]
            length = requests.put(sys.argv[1] + "/discard?hash=1", data=body).json()
            chunked = requests.post(sys.argv[1] + "/discard?hash=1", data=chunks()).json()
            print(json.dumps({"expected": hashlib.sha256(body).hexdigest(), "size": len(body),
                              "length": length, "chunked": chunked}))
            """
        let run = try VenvPython.run(script, [servers.fast.absoluteString])
        try #require(run.status == 0)
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        for name in ["length", "chunked"] {
            let result = try #require(results[name] as? [String: Any])
            #expect(result["bytes"] as? Int == results["size"] as? Int)
            #expect(result["sha256"] as? String == results["expected"] as? String)
            #expect(result["chunked"] as? Bool == (name == "chunked"))
        }
    }

    @Test func fastServerCutsRetriesRedirectsEchoesAndStalls() throws {
        let servers = try TestServers.shared()
        let script = """
            import json, sys, uuid, requests
            fast, other = sys.argv[1:]
            key = uuid.uuid4().hex
            retries = [requests.get(f"{fast}/retry?key={key}&fail=2&status=429&retry_after=3") for _ in range(3)]
            count = requests.get(f"{fast}/retry-count?key={key}").json()["attempts"]
            redirect = requests.get(f"{fast}/redirect-cross?status=307&to={other}/echo-headers", allow_redirects=False)
            echo = requests.get(f"{other}/echo-headers", headers={"Authorization": "Basic eDp5", "Cookie": "a=b"}).json()
            try:
                requests.get(f"{fast}/large/100000?cut=5000").content
                cut = "complete"
            except requests.exceptions.ChunkedEncodingError as error:
                cut = "cut"
            try:
                requests.get(f"{fast}/stall?body=10", timeout=(5, 0.3)).content
                stall = "complete"
            except requests.exceptions.ConnectionError as error:
                stall = "timed out" if "timed out" in str(error) else str(error)
            print(json.dumps({
                "retries": [[r.status_code, r.headers.get("Retry-After"), r.json()["attempt"]] for r in retries],
                "count": count, "redirect": [redirect.status_code, redirect.headers["Location"]],
                "echo": echo, "cut": cut, "stall": stall,
            }))
            """
        let run = try VenvPython.run(script, [servers.fast.absoluteString, servers.fastOtherOrigin.absoluteString])
        try #require(run.status == 0)
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let retries = try #require(results["retries"] as? [[Any]])
        #expect(retries.map { $0[0] as? Int } == [429, 429, 200])
        #expect(retries.map { $0[1] as? String } == ["3", "3", nil])
        #expect(retries.map { $0[2] as? Int } == [1, 2, 3])
        #expect(results["count"] as? Int == 3)
        let redirect = try #require(results["redirect"] as? [Any])
        #expect(redirect[0] as? Int == 307)
        #expect(redirect[1] as? String == servers.fastOtherOrigin.absoluteString + "/echo-headers")
        let echo = try #require(results["echo"] as? [String: Any])
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["authorization"] == "Basic eDp5")
        #expect(headers["cookie"] == "a=b")
        #expect(results["cut"] as? String == "cut")
        #expect(results["stall"] as? String == "timed out")
    }

    @Test func closingStandardInputStopsEveryServerAndDeletesTheCertificates() async throws {
        let running = try TestServers.launch()
        let servers = running.servers
        let (_, response) = try await fetch(URLRequest(url: servers.fast.appendingPathComponent("echo-headers")))
        #expect(response.statusCode == 200)
        #expect(FileManager.default.fileExists(atPath: servers.certificates.caA.path))

        #expect(running.stop() == 0)
        for group in servers.processGroups {
            #expect(kill(-group, 0) == -1 && errno == ESRCH, "process group \(group) is still alive")
        }
        #expect(!FileManager.default.fileExists(atPath: servers.directory.path))
        await #expect(throws: (any Error).self) {
            _ = try await fetch(URLRequest(url: servers.httpbin.appendingPathComponent("get")))
        }
    }
}

/// `request`'s body and HTTP response from an ephemeral URLSession.
private func fetch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(for: request)
    return (data, try #require(response as? HTTPURLResponse))
}

/// `request` sent with `body`; the response's body and head.
private func upload(_ request: URLRequest, _ body: Data) async throws -> (Data, HTTPURLResponse) {
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.upload(for: request, from: body)
    return (data, try #require(response as? HTTPURLResponse))
}
