import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A CloudKit Web Services caller written from Apple's reference alone, for testing the emulator
/// independently of the toolkit's client: raw JSON bodies, and signatures made by the `openssl`
/// command (SHA-256 of the body, ECDSA P-256 over `date:hash:subpath`).
struct RawCloudKit {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var data: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:] }
        var serverErrorCode: String? { json["serverErrorCode"] as? String }
        var reason: String? { json["reason"] as? String }
        var records: [[String: Any]] { json["records"] as? [[String: Any]] ?? [] }
    }

    let baseURL: String
    let keyID: String
    let keyFile: String
    var container = "iCloud.net.dataenvy.TribeBoard"
    var environment = "development"
    /// When set, the request acts as an app user: this query string (`ckAPIToken=…&ckWebAuthToken=…`,
    /// encoded by the test) is appended and nothing is signed.
    var userQuery: String?

    /// An app user's caller: tokens in the URL, no key.
    static func appUser(baseURL: String, query: String) -> RawCloudKit {
        var client = RawCloudKit(baseURL: baseURL, keyID: "", keyFile: "")
        client.userQuery = query
        return client
    }

    func subpath(_ operation: String) -> String { "/database/1/\(container)/\(environment)/public/\(operation)" }

    func post(_ operation: String, _ json: String) async throws -> Answer {
        try await send("POST", operation, body: Data(json.utf8))
    }

    func get(_ operation: String) async throws -> Answer { try await send("GET", operation, body: Data()) }

    private func send(_ method: String, _ operation: String, body: Data) async throws -> Answer {
        let path = subpath(operation)
        guard let url = URL(string: baseURL + path + (userQuery.map { "?" + $0 } ?? "")) else { throw TestFailure("bad URL") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if method == "POST" { request.httpBody = body }
        if userQuery == nil { try sign(&request, path: path, body: body) }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestFailure("no HTTP response") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return Answer(status: http.statusCode, headers: headers, data: data)
    }

    private func sign(_ request: inout URLRequest, path: String, body: Data) throws {
        let date = Self.isoDate(Date())
        let hash = try OpenSSL.run(["dgst", "-sha256", "-binary"], input: body).base64EncodedString()
        let signature = try OpenSSL.run(["dgst", "-sha256", "-sign", keyFile], input: Data("\(date):\(hash):\(path)".utf8))
        request.setValue(keyID, forHTTPHeaderField: "X-Apple-CloudKit-Request-KeyID")
        request.setValue(date, forHTTPHeaderField: "X-Apple-CloudKit-Request-ISO8601Date")
        request.setValue(signature.base64EncodedString(), forHTTPHeaderField: "X-Apple-CloudKit-Request-SignatureV1")
    }

    static func isoDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return formatter.string(from: date)
    }

    /// A Family create exactly as Apple's records/modify example is shaped.
    static func createFamily(_ name: String, code: String, extra: String = "") -> String {
        """
        {"operations": [{"operationType": "create", "record": {"recordType": "Family", "recordName": "\(name)",
          "fields": {"code": {"value": "\(code)", "type": "STRING"}, "name": {"value": "The \(code)s", "type": "STRING"}\(extra)}}}],
         "atomic": false}
        """
    }

    static func queryCode(_ codes: [String], type: String = "STRING_LIST", recordType: String = "Family") -> String {
        let list = codes.map { "\"\($0)\"" }.joined(separator: ",")
        return """
            {"zoneID": {"zoneName": "_defaultZone"}, "resultsLimit": 200, "query": {"recordType": "\(recordType)",
              "filterBy": [{"fieldName": "code", "comparator": "IN", "fieldValue": {"value": [\(list)], "type": "\(type)"}}]}}
            """
    }

    static func queryAll(_ recordType: String) -> String {
        #"{"zoneID": {"zoneName": "_defaultZone"}, "resultsLimit": 200, "query": {"recordType": "\#(recordType)"}}"#
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The `openssl` command: keys and signatures made by a tool the emulator does not share.
enum OpenSSL {
    @discardableResult
    static func run(_ arguments: [String], input: Data = Data()) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("openssl \(arguments.joined(separator: " ")) failed") }
        return output
    }

    /// A fresh key pair in a new folder: the private key file and the public half's PEM.
    static func keyPair() throws -> (privateFile: String, publicPEM: [UInt8], publicFile: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let privateFile = folder + "/eckey.pem", publicFile = folder + "/eckey.pub.pem"
        try run(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", privateFile])
        try run(["ec", "-in", privateFile, "-pubout", "-out", publicFile])
        guard let pem = FileManager.default.contents(atPath: publicFile) else { throw TestFailure("no public key") }
        return (privateFile, Array(pem), publicFile)
    }
}
