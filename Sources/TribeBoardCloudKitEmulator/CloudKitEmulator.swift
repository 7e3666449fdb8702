import FlyingFox
import FlyingSocks
import Foundation

/// A loopback emulator of CloudKit Web Services for tests and rehearsals, written from Apple's
/// documentation and sharing no code with the client: it checks each request's signature against
/// the keys registered for its container, answers records/query, records/lookup, records/modify,
/// users/caller and zones/list with the documented bodies and error dictionaries, enforces a
/// schema (types, fields, indexes, security roles, development vs production) when given one,
/// injects the faults it was started with, and can persist its records to a file.
public final class CloudKitEmulator: Sendable {
    public struct Options: Sendable {
        public var port: UInt16 = 0
        public var faults = EmulatorFaults()
        /// How far a request's date may be from the emulator's clock (Apple does not publish its
        /// own).
        public var maxClockSkew: Double = 300
        /// Seconds added to the emulator's clock: a server whose clock disagrees with ours.
        public var clockOffset: Double = 0
        public var dataFile: String?
        /// `.permissive` (the default): every type exists and every field is indexed. `.enforced`:
        /// a real container's schema, starting from the given development and production schemas.
        public var schema: SchemaMode = .permissive
        /// Answer a create of an existing name with CONFLICT instead of EXISTS.
        public var conflictOnRepeatedCreate = false
        /// Answer a create of a name held by a record the caller may not change ACCESS_DENIED
        /// instead (Apple does not document which answer comes first).
        public var accessDeniedOnForeignCreate = false
        /// Seconds records/query lags behind writes (0: always current, which no real container
        /// is).
        public var indexLag: Double = 0
        public init() {}
    }

    let state: EmulatorState
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    public let baseURL: String

    /// Starts listening on 127.0.0.1; returns once connections are accepted.
    public static func start(_ options: Options = Options()) async throws -> CloudKitEmulator {
        if options.port != 0 { try PortCheck.free(options.port) }
        let state = try EmulatorState(options: options)
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: options.port), timeout: 60, logger: .disabled
        )
        // Every answer carries the server's clock, as Apple's does (doctor measures skew with it).
        await server.appendRoute("*") { request in
            var response = await state.handle(request).response
            response.headers[.date] = ServerClock.httpDate(
                Date().addingTimeInterval(options.clockOffset))
            return response
        }
        let task = Task(executorPreference: EmulatorExecutor()) { try await server.run() }
        try await server.waitUntilListening(timeout: 30)
        var port: UInt16 = 0
        if case .ip4(_, let bound)? = await server.listeningAddress { port = bound }
        ListenerNoDelay.apply(port: port)
        return CloudKitEmulator(
            state: state, server: server, task: task, baseURL: "http://127.0.0.1:\(port)")
    }

    private init(
        state: EmulatorState, server: HTTPServer, task: Task<Void, any Error>, baseURL: String
    ) {
        self.state = state
        self.server = server
        self.task = task
        self.baseURL = baseURL
    }

    /// Registers a key the way the CloudKit Dashboard does: its id and public half, for one
    /// container (a request to another container signed with it is AUTHENTICATION_FAILED), or
    /// for every container when `container` is nil.
    public func registerKey(id: String, publicKeyPEM: [UInt8], container: String? = nil) async {
        await state.registerKey(id: id, publicKeyPEM: publicKeyPEM, container: container)
    }

    /// Signs an iCloud user in: a request whose URL carries `ckAPIToken` (any) and this
    /// `ckWebAuthToken` acts as the user `userRecordName`, in every container, with the public
    /// database's roles of a signed-in user (reads all, creates any type, changes its own records).
    public func registerUser(_ userRecordName: String, webAuthToken: String) async {
        await state.registerUser(userRecordName: userRecordName, webAuthToken: webAuthToken)
    }

    public func setFaults(_ faults: EmulatorFaults) async { await state.setFaults(faults) }

    /// Every record of a zone, for tests to inspect.
    public func storedRecords(
        container: String, environment: String = "development", zone: String = "_defaultZone"
    ) async -> [WireRecord] {
        await state.records(
            at: Location(
                container: container, environment: environment, database: "public", zone: zone))
    }

    /// Records written earlier: by the app user (or developer) their `created.userRecordName`
    /// names, whose records no one else may change; without it, by the developer of the first key
    /// registered that opens the container.
    public func seedRecords(
        _ records: [WireRecord], container: String, environment: String = "development",
        zone: String = "_defaultZone"
    ) async {
        await state.seed(
            records,
            at: Location(
                container: container, environment: environment, database: "public", zone: zone))
    }

    /// The schema an environment has now (grown by development writes); nil when not enforced.
    public func schema(container: String, environment: String = "development") async
        -> ContainerSchema?
    {
        await state.schema(
            at: Location(
                container: container, environment: environment, database: "public",
                zone: "_defaultZone"))
    }

    /// The user record a server-to-server key acts as (users/caller answers it): each key is its
    /// own developer, so records one key created another may not change.
    public static func developerRecordName(keyID: String) -> String {
        KeyRing.developer(keyID: keyID)
    }

    /// Requests answered so far, by operation (`records/modify`, ...), faults included.
    public func requestCounts() async -> [String: Int] { await state.counts }

    public func stop() async {
        await state.persistNow()
        await server.stop(timeout: 1)
        task.cancel()
    }
}
