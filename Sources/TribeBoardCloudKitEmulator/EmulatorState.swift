import FlyingFox
import Foundation
import TribeBoardCore

/// The emulator's mutable state and request handling, serialized by the actor.
actor EmulatorState {
    private var database = EmulatorDatabase()
    private var keys: [String: [UInt8]] = [:]
    private var faults: EmulatorFaults
    private var dice: FaultDice
    private let maxClockSkew: Double
    private let clockOffset: Double
    private let dataFile: String?
    private var lastPersist = ContinuousClock.now
    private(set) var counts: [String: Int] = [:]

    init(options: CloudKitEmulator.Options) throws {
        faults = options.faults
        dice = FaultDice(seed: options.faults.seed)
        maxClockSkew = options.maxClockSkew
        clockOffset = options.clockOffset
        dataFile = options.dataFile
        if let path = options.dataFile, FileManager.default.fileExists(atPath: path) {
            do {
                database = try JSONDecoder().decode(EmulatorDatabase.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw EmulatorError.cannotLoad(path: path, reason: "\(error)")
            }
        }
    }

    func registerKey(id: String, publicKeyPEM: [UInt8]) { keys[id] = publicKeyPEM }

    func setFaults(_ faults: EmulatorFaults) {
        self.faults = faults
        dice = FaultDice(seed: faults.seed)
    }

    func records(in zone: String) -> [CloudKitRecord] {
        (database.zones[zone] ?? [:]).values.sorted { $0.recordName < $1.recordName }
    }

    func seed(_ records: [CloudKitRecord], in zone: String) {
        database.seed(records, in: zone)
    }

    // MARK: Requests

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let path = request.path
        let parts = path.split(separator: "/").map(String.init)
        // database / 1 / container / environment / database / operation...
        guard parts.count >= 7, parts[0] == "database", parts[1] == "1" else {
            return Self.error(.badRequest, status: 400, "unknown path \(path)")
        }
        let (container, environment, scope) = (parts[2], parts[3], parts[4])
        let operation = parts[5...].joined(separator: "/")
        counts[operation, default: 0] += 1

        if faults.latency > .zero { try? await Task.sleep(for: faults.latency) }
        switch dice.roll(faults) {
        case .unavailable: return Self.error(.tryAgainLater, status: 503, "injected: service unavailable")
        case .throttled: return Self.error(.throttled, status: 429, "injected: too many requests", retryAfter: faults.throttleRetryAfter)
        case .internalError: return Self.error(.internalError, status: 500, "injected: internal error")
        case .drop:
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"],
                                body: HTTPBodySequence(from: TruncatedBody(bytes: Array(#"{"records":[]}"#.utf8) + Array(repeating: 0x20, count: 64)),
                                                       count: 80))
        case .none: break
        }

        let body: Data
        do { body = try await request.bodyData } catch { return Self.error(.badRequest, status: 400, "unreadable body") }
        guard ["development", "production"].contains(environment) else {
            return Self.error(.badRequest, status: 400, "unknown environment \(environment)")
        }
        if let failure = authenticate(request, scope: scope, body: Array(body), subpath: path) { return failure }
        let caller = "_" + (request.headers[HTTPHeader("X-Apple-CloudKit-Request-KeyID")] ?? "user").prefix(16)
        let zonePrefix = "\(container)/\(environment)/\(scope)/"

        switch (request.method, operation) {
        case (.GET, "users/caller"):
            return Self.json(["userRecordName": caller])
        case (.GET, "zones/list"):
            return Self.json(["zones": [["zoneID": ["zoneName": "_defaultZone"]]]])
        case (.POST, "records/query"):
            guard let query = try? JSONDecoder().decode(QueryBody.self, from: body) else { return Self.malformed("records/query") }
            let zone = query.zoneID?.zoneName ?? "_defaultZone"
            guard zone == "_defaultZone" else { return Self.error(.zoneNotFound, status: 404, "zone \(zone) not found") }
            do {
                let page = try database.query(query, in: zonePrefix + zone)
                return Self.encode(QueryPageBody(records: page.records, continuationMarker: page.marker))
            } catch {
                return Self.error(error.code, status: 400, error.reason)
            }
        case (.POST, "records/lookup"):
            guard let lookup = try? JSONDecoder().decode(LookupBody.self, from: body) else { return Self.malformed("records/lookup") }
            let zone = lookup.zoneID?.zoneName ?? "_defaultZone"
            guard zone == "_defaultZone" else { return Self.error(.zoneNotFound, status: 404, "zone \(zone) not found") }
            return Self.encode(RecordsBody(records: database.lookup(lookup.records.map(\.recordName), in: zonePrefix + zone)))
        case (.POST, "records/modify"):
            guard let modify = try? JSONDecoder().decode(ModifyBody.self, from: body) else { return Self.malformed("records/modify") }
            let zone = modify.zoneID?.zoneName ?? "_defaultZone"
            guard zone == "_defaultZone" else { return Self.error(.zoneNotFound, status: 404, "zone \(zone) not found") }
            do {
                let results = try database.modify(modify.operations, in: zonePrefix + zone, atomic: modify.atomic ?? false,
                                                  now: Int64(Date().timeIntervalSince1970 * 1000), caller: caller)
                persistIfDue()
                return Self.encode(RecordsBody(records: results))
            } catch {
                return Self.error(error.code, status: 400, error.reason)
            }
        default:
            return Self.error(.badRequest, status: 400, "unsupported operation \(request.method.rawValue) \(operation)")
        }
    }

    /// The public database takes a server-to-server signature; the others a user's tokens.
    private func authenticate(_ request: HTTPRequest, scope: String, body: [UInt8], subpath: String) -> HTTPResponse? {
        guard scope == "public" else {
            let tokens = Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            guard tokens["ckAPIToken"]?.isEmpty == false, tokens["ckWebAuthToken"]?.isEmpty == false else {
                return Self.error(.authenticationRequired, status: 421, "the \(scope) database needs ckAPIToken and ckWebAuthToken")
            }
            return nil
        }
        guard let keyID = request.headers[HTTPHeader(CloudKitSigner.keyIDHeader)],
              let date = request.headers[HTTPHeader(CloudKitSigner.dateHeader)],
              let signatureText = request.headers[HTTPHeader(CloudKitSigner.signatureHeader)] else {
            return Self.error(.authenticationFailed, status: 401, "missing X-Apple-CloudKit-Request-* headers")
        }
        guard let publicKey = keys[keyID] else {
            return Self.error(.authenticationFailed, status: 401, "unknown key id")
        }
        guard let sent = try? Date(date, strategy: .iso8601) else {
            return Self.error(.authenticationFailed, status: 401, "the request date \(date) is not ISO 8601")
        }
        let skew = abs(sent.timeIntervalSince(Date().addingTimeInterval(clockOffset)))
        guard skew <= maxClockSkew else {
            return Self.error(.authenticationFailed, status: 401, "the request date is \(Int(skew)) s away from the server's clock")
        }
        let message = Array(CloudKitSigner.message(timestamp: date, body: body, subpath: subpath).utf8)
        guard let signature = Data(base64Encoded: signatureText),
              CloudKitSignatureVerifier.isValid(signature: Array(signature), message: message, publicKeyPEM: publicKey) else {
            return Self.error(.authenticationFailed, status: 401, "the signature does not match")
        }
        return nil
    }

    // MARK: Persistence

    private func persistIfDue() {
        guard dataFile != nil, ContinuousClock.now - lastPersist > .seconds(1) else { return }
        persistNow()
    }

    func persistNow() {
        guard let dataFile, let data = try? JSONEncoder().encode(database) else { return }
        try? AtomicFile.write(Array(data), to: dataFile, permissions: 0o600)
        lastPersist = .now
    }

    // MARK: Responses

    static func error(_ code: CloudKitServerErrorCode, status: Int, _ reason: String, retryAfter: Double? = nil) -> HTTPResponse {
        let envelope = CloudKitErrorEnvelope(uuid: UUID().uuidString, serverErrorCode: code.rawValue, reason: reason,
                                             retryAfter: retryAfter, redirectURL: nil)
        let body = (try? JSONEncoder().encode(envelope)) ?? Data()
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: code.rawValue), headers: [.contentType: "application/json"], body: body)
    }

    static func malformed(_ operation: String) -> HTTPResponse {
        error(.badRequest, status: 400, "the body of \(operation) is not valid JSON of the documented shape")
    }

    static func json(_ object: [String: Any]) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
    }

    static func encode(_ value: some Encodable) -> HTTPResponse {
        guard let body = try? JSONEncoder().encode(value) else { return error(.internalError, status: 500, "cannot encode") }
        return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
    }
}

struct QueryPageBody: Encodable {
    var records: [CloudKitRecord]
    var continuationMarker: String?
}

struct RecordsBody: Encodable {
    var records: [LookupEntry]
}
