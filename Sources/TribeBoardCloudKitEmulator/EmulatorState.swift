import FlyingFox
import Foundation

/// The emulator's mutable state and request handling, serialized by the actor.
actor EmulatorState {
    private var database = EmulatorDatabase()
    private var keyRing = KeyRing()
    private var appUsers = AppUsers()
    private var faults: EmulatorFaults
    private var dice: FaultDice
    private let policy: ContainerPolicy
    private let maxClockSkew: Double
    private let clockOffset: Double
    private let dataFile: String?
    private var lastPersist = ContinuousClock.now
    private var lastPersistCost = Duration.zero
    /// The save under way, if one is: encoding and writing hundreds of thousands of records takes
    /// seconds, which requests must not wait for (a client would time out and retry).
    private var saving: Task<Void, Never>?
    /// Set by the final save: no background save may start, and finish with older records, after
    /// it.
    private var stopping = false
    /// Writes not yet in a save (finished or under way).
    private var unsaved = false
    /// The save scheduled for when the next one is due: a burst's last writes are saved without
    /// waiting for a write that may never come.
    private var timer: Task<Void, Never>?
    private(set) var counts: [String: Int] = [:]

    init(options: CloudKitEmulator.Options) throws {
        faults = options.faults
        dice = FaultDice(seed: options.faults.seed)
        policy = ContainerPolicy(
            schemaMode: options.schema,
            repeatedCreate: options.conflictOnRepeatedCreate ? .conflict : .exists,
            accessDeniedOnForeignCreate: options.accessDeniedOnForeignCreate,
            indexLagMilliseconds: Int64((options.indexLag * 1000).rounded()))
        maxClockSkew = options.maxClockSkew
        clockOffset = options.clockOffset
        dataFile = options.dataFile
        if let path = options.dataFile, FileManager.default.fileExists(atPath: path) {
            do {
                database = try JSONDecoder().decode(
                    EmulatorDatabase.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw EmulatorError.cannotLoad(path: path, reason: "\(error)")
            }
            do { try database.importSchemas(options.schema) } catch {
                throw EmulatorError.cannotLoad(
                    path: path,
                    reason: "the schema given cannot be applied to the container it holds: \(error)"
                )
            }
        }
    }

    func registerKey(id: String, publicKeyPEM: [UInt8], container: String?) {
        keyRing.register(id: id, publicKeyPEM: publicKeyPEM, container: container)
    }

    func registerUser(userRecordName: String, webAuthToken: String) {
        appUsers.register(userRecordName: userRecordName, webAuthToken: webAuthToken)
    }

    func setFaults(_ faults: EmulatorFaults) {
        self.faults = faults
        dice = FaultDice(seed: faults.seed)
    }

    func records(at location: Location) -> [WireRecord] {
        (database.zones[location.zoneKey] ?? [:]).values.sorted { $0.recordName < $1.recordName }
    }

    func seed(_ records: [WireRecord], at location: Location) {
        let developer =
            keyRing.firstDeveloper(of: location.container)
            ?? Caller.developer(of: location.container)
        database.seed(records, at: location, mode: policy.schemaMode, developer: developer)
    }

    func schema(at location: Location) -> ContainerSchema? {
        database.schema(at: location, mode: policy.schemaMode)
    }

    // MARK: Requests

    func handle(_ request: HTTPRequest) async -> Reply {
        let path = request.path
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "" / database / 1 / container / environment / database / operation...
        guard parts.count >= 8, parts[0].isEmpty, parts[1] == "database", parts[2] == "1" else {
            return .ready(Self.error(.badRequest, "unknown path \(path)"))
        }
        let (container, environment, scope) = (parts[3], parts[4], parts[5])
        let operation = parts[6...].joined(separator: "/")
        counts[operation, default: 0] += 1

        if faults.latency > .zero { try? await Task.sleep(for: faults.latency) }
        if let injected = injectedFault(operation) { return .ready(injected) }

        // Apple's Web Services reference documents no request size in bytes (200 operations, 1 MB a
        // record); native CloudKit's CKError.limitExceeded gives "2 MB per request (not counting
        // asset sizes)" as the guideline, which the emulator enforces, as BAD_REQUEST.
        if let length = request.headers[.contentLength].flatMap(Int.init),
            length > Self.maxRequestBytes
        {
            return .ready(Self.error(.badRequest, Self.tooLarge(length)))
        }
        let body: Data
        do { body = try await request.bodyData } catch {
            return .ready(Self.error(.badRequest, "unreadable body"))
        }
        guard body.count <= Self.maxRequestBytes else {
            return .ready(Self.error(.badRequest, Self.tooLarge(body.count)))
        }
        guard ["development", "production"].contains(environment) else {
            return .ready(Self.error(.badRequest, "unknown environment \(environment)"))
        }
        let now = Date().addingTimeInterval(clockOffset)
        let who: String
        do throws(Refusal) {
            // An app user's tokens in the URL, or else a key's signature in the headers.
            if let user = try appUsers.caller(rawQuery: request.target.query(percentEncoded: true))
            {
                who = user
            } else {
                who = try keyRing.authenticate(
                    { request.headers[HTTPHeader($0)] }, body: Array(body), subpath: path,
                    container: container, serverClock: now, maxClockSkew: maxClockSkew)
            }
        } catch {
            return .ready(Self.error(error.code, error.reason))
        }
        guard scope == "public" else {
            return .ready(
                Self.error(
                    .authenticationRequired,
                    "the \(scope) database is not emulated (only the public database is); "
                        + "a server-to-server key reaches only the public database"))
        }
        let caller = Caller(userRecordName: who, now: Int64(now.timeIntervalSince1970 * 1000))
        return answer(
            request.method, operation, body: body, container: container, environment: environment,
            caller: caller)
    }

    /// The most a request body may hold: 2 MB (see `handle`).
    static let maxRequestBytes = 2_000_000

    static func tooLarge(_ bytes: Int) -> String {
        "request of \(bytes) bytes is larger than the \(maxRequestBytes) bytes a request may hold; send fewer operations per request"
    }

    private func injectedFault(_ operation: String) -> HTTPResponse? {
        let retryAfter = Self.headerSeconds(faults.throttleRetryAfter)
        switch dice.roll(faults) {
        case .unavailable:
            return Self.error(
                .tryAgainLater, "injected: service unavailable", headers: [.retryAfter: retryAfter])
        case .bareUnavailable:
            return HTTPResponse(
                statusCode: HTTPStatusCode(503, phrase: "Service Unavailable"),
                headers: [.retryAfter: retryAfter])
        case .throttled:
            return Self.error(.throttled, "injected: too many requests", retryAfter: faults.throttleRetryAfter, headers: [.retryAfter: retryAfter])
        case .internalError: return Self.error(.internalError, "injected: internal error", retryAfter: faults.throttleRetryAfter)
        case .bareInternalError: return Self.error(.internalError, "injected: internal error")
        // Only writes use up a quota: another operation that drew it is answered normally.
        case .quotaExceeded where operation == "records/modify":
            return Self.error(.quotaExceeded, "injected: quota exceeded")
        case .quotaExceeded: return nil
        case .drop:
            return HTTPResponse(
                statusCode: .ok, headers: [.contentType: "application/json"],
                body: HTTPBodySequence(
                    from: TruncatedBody(
                        bytes: Array(#"{"records":[]}"#.utf8) + Array(repeating: 0x20, count: 64)),
                    count: 80))
        case .none: return nil
        }
    }

    private func answer(
        _ method: HTTPMethod, _ operation: String, body: Data, container: String,
        environment: String,
        caller: Caller
    ) -> Reply {
        func location(_ zone: WireZoneID?) -> Location {
            Location(
                container: container, environment: environment, database: "public",
                zone: zone?.zoneName ?? "_defaultZone")
        }
        do throws(Refusal) {
            switch (method, operation) {
            case (.GET, "users/caller"):
                return .ready(
                    Self.encode(
                        CallerResponseBody(users: [.init(userRecordName: caller.userRecordName)])))
            case (.GET, "zones/list"):
                return .ready(Self.encode(["zones": [["zoneID": ["zoneName": "_defaultZone"]]]]))
            case (.POST, "records/query"):
                let query = try Self.decode(QueryRequestBody.self, body, operation)
                let page = try database.query(query, at: try Self.defaultZone(location(query.zoneID)), policy: policy, caller: caller)
                return .encoding(QueryResponseBody(records: page.records.map { $0.keeping(query.desiredKeys) }, continuationMarker: page.marker))
            case (.POST, "records/lookup"):
                let lookup = try Self.decode(LookupRequestBody.self, body, operation)
                let place = try Self.defaultZone(location(lookup.zoneID))
                let found = database.lookup(
                    lookup.records.map(\.recordName), at: place, policy: policy, caller: caller)
                return .encoding(
                    RecordsResponseBody(records: found.map { $0.keeping(lookup.desiredKeys) }))
            case (.POST, "records/modify"):
                var modify = try Self.decode(ModifyRequestBody.self, body, operation)
                let place = try Self.defaultZone(location(modify.zoneID))
                guard modify.operations.count <= 200 else {
                    throw Refusal(.badRequest, "a request holds at most 200 operations, this one has \(modify.operations.count)")
                }
                let throttled = modify.operations.map { _ in dice.throttlesRecord(faults) }
                let all = modify.operations
                modify.operations = zip(all, throttled).filter { !$0.1 }.map(\.0)
                var saved = try database.modify(modify, at: place, policy: policy, caller: caller)
                    .makeIterator()
                persistIfDue()
                let results = zip(all, throttled).map { operation, isThrottled in
                    isThrottled ? .error(RecordErrorBody(recordName: operation.record.recordName,
                                                         reason: "injected: too many requests for this record",
                                                         serverErrorCode: .throttled, retryAfter: faults.throttleRetryAfter, uuid: UUID().uuidString))
                                : saved.next() ?? .error(RecordErrorBody(recordName: operation.record.recordName, reason: "no answer",
                                                                          serverErrorCode: .internalError, uuid: UUID().uuidString))
                }
                return .ready(Self.encode(RecordsResponseBody(records: results)))
            default:
                return .ready(
                    Self.error(.badRequest, "unsupported operation \(method.rawValue) \(operation)")
                )
            }
        } catch {
            return .ready(Self.error(error.code, error.reason))
        }
    }

    /// Custom zones are not emulated: only the public database's default zone exists.
    private static func defaultZone(_ location: Location) throws(Refusal) -> Location {
        guard location.zone == "_defaultZone" else {
            throw Refusal(.zoneNotFound, "Zone '\(location.zone)' does not exist")
        }
        return location
    }

    private static func decode<Body: Decodable>(
        _ type: Body.Type, _ body: Data, _ operation: String
    ) throws(Refusal) -> Body {
        do { return try JSONDecoder().decode(type, from: body) } catch {
            throw Refusal(
                .badRequest, "the body of \(operation) is not valid JSON of the documented shape")
        }
    }

    // MARK: Persistence

    /// A write happened: it is saved within a second, or ten times as long as the last save took
    /// (a large zone's save must not take most of the emulator's CPU), of the save before, whether
    /// or not another write follows. The save works on a copy, off the actor, one at a time, so
    /// requests go on being answered meanwhile; stopping saves what is there by then.
    private func persistIfDue() {
        unsaved = true
        schedulePersist()
    }

    private func schedulePersist() {
        guard let dataFile, unsaved, saving == nil, timer == nil, !stopping else { return }
        let due = lastPersist + max(.seconds(1), lastPersistCost * 10)
        guard ContinuousClock.now >= due else {
            timer = Task(executorPreference: EmulatorExecutor(), priority: .utility) {
                try? await Task.sleep(until: due, clock: .continuous)
                await self.timerFired()
            }
            return
        }
        unsaved = false
        let copy = database
        saving = Task(executorPreference: EmulatorExecutor(), priority: .utility) {
            let cost = Self.save(copy, to: dataFile)
            await self.saved(cost: cost)
        }
    }

    private func timerFired() {
        timer = nil
        schedulePersist()
    }

    private func saved(cost: Duration) {
        lastPersist = .now
        lastPersistCost = cost
        saving = nil
        // Writes that came during the save are in no file yet.
        schedulePersist()
    }

    /// Waits for a save under way, then saves the records as they are now: the emulator is
    /// stopping, and no background save starts after this one.
    func persistNow() async {
        stopping = true
        timer?.cancel()
        timer = nil
        while let running = saving { await running.value }
        guard let dataFile else { return }
        saved(cost: Self.save(database, to: dataFile))
    }

    /// How long it took; a save that fails leaves the previous file (the next one tries again).
    private nonisolated static func save(_ database: EmulatorDatabase, to path: String) -> Duration
    {
        let started = ContinuousClock.now
        if let data = try? JSONEncoder().encode(database) { try? DataFile.write(data, to: path) }
        return ContinuousClock.now - started
    }

    // MARK: Responses

    /// Apple's error dictionary, `uuid` included, with the status its code is sent with.
    static func error(
        _ code: ServerErrorCode, _ reason: String, retryAfter: Double? = nil,
        headers: [HTTPHeader: String] = [:]
    ) -> HTTPResponse {
        let error = ErrorBody(
            uuid: UUID().uuidString, serverErrorCode: code, reason: reason, retryAfter: retryAfter)
        let body = (try? JSONEncoder().encode(error)) ?? Data()
        var all = headers
        all[.contentType] = "application/json"
        return HTTPResponse(
            statusCode: HTTPStatusCode(code.httpStatus, phrase: code.rawValue), headers: all,
            body: body)
    }

    /// What a request is answered with: a response, or records to encode into one. Encoding a
    /// page takes longer than finding it; it is done off the actor (`response`), so that requests
    /// side by side are encoded side by side, as Apple's servers answer them, rather than one
    /// after another behind the actor.
    enum Reply: Sendable {
        case ready(HTTPResponse)
        case encoding(any Encodable & Sendable)

        var response: HTTPResponse {
            switch self {
            case .ready(let response): return response
            case .encoding(let body): return EmulatorState.encode(body)
            }
        }
    }

    static func encode(_ value: some Encodable) -> HTTPResponse {
        guard let body = try? JSONEncoder().encode(value) else {
            return error(.internalError, "cannot encode the answer")
        }
        return HTTPResponse(
            statusCode: .ok, headers: [.contentType: "application/json"], body: body)
    }

    /// Whole seconds as Apple sends them; a fraction as given (tests use short waits).
    static func headerSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

extension HTTPHeader {
    static let retryAfter = HTTPHeader("Retry-After")
}
