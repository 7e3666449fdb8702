import Foundation
import Logging
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
import TribeBoardSupport
#endif

/// A CloudKit Web Services client over URLSession: signed requests, errors classified as the
/// seeds require, transient ones retried within bounds, and at most `maxConcurrentRequests` in
/// flight whatever the caller does.
package final class CloudKitClient: Sendable {
    package static let maxOperationsPerRequest = 200
    package static let maxResultsPerQuery = 200
    /// Requests in flight at once, unless a client is made with another limit.
    package static let maxConcurrentRequests = 4
    /// The most of one answer the client reads. Apple documents 200 records a response and 1 MB a
    /// record (assets apart), so a full page of the largest records is about 200 MB of JSON; the
    /// toolkit's records are a few hundred bytes, and 64 MiB leaves room for app users' records
    /// three hundred times that size while keeping a hostile or broken server's endless answer
    /// from taking the machine's memory.
    package static let maxResponseBytes = 64 << 20

    package let configuration: CloudKitConfiguration
    /// Requests this client keeps in flight at once, at most.
    package let concurrency: Int
    private let signer: CloudKitSigner?
    private let session: URLSession
    private let exchanges: BoundedExchanges
    private let policy: RetryPolicy
    private let limiter: ConcurrencyLimiter
    private let logger: Logger
    /// The most one request may take, however slowly its answer trickles in.
    private let requestDeadline: Double
    /// When the whole run must be over (`--max-duration`): no request or backoff outlives it.
    private let runDeadline: ContinuousClock.Instant?
    /// Legacy types found missing, so that each is noted once per run, not once per query.
    private let missingTypesNoted: MissingTypeNotes

    package init(
        configuration: CloudKitConfiguration, signer: CloudKitSigner?,
        policy: RetryPolicy = RetryPolicy(),
        maxConcurrentRequests: Int = CloudKitClient.maxConcurrentRequests,
        requestTimeout: Double = 30,
        maxResponseBytes: Int = CloudKitClient.maxResponseBytes, logger: Logger
    ) {
        self.configuration = configuration
        self.signer = signer
        self.policy = policy
        self.limiter = ConcurrencyLimiter(limit: maxConcurrentRequests)
        concurrency = max(maxConcurrentRequests, 1)
        self.logger = logger
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = requestTimeout
        sessionConfiguration.httpMaximumConnectionsPerHost = maxConcurrentRequests
        requestDeadline = requestTimeout * 2
        runDeadline = nil
        missingTypesNoted = MissingTypeNotes()
        exchanges = BoundedExchanges(limit: maxResponseBytes)
        session = URLSession(
            configuration: sessionConfiguration, delegate: exchanges, delegateQueue: nil)
    }

    private init(_ other: CloudKitClient, runDeadline: ContinuousClock.Instant?) {
        configuration = other.configuration
        signer = other.signer
        session = other.session
        exchanges = other.exchanges
        policy = other.policy
        limiter = other.limiter
        concurrency = other.concurrency
        logger = other.logger
        requestDeadline = other.requestDeadline
        self.runDeadline = runDeadline
        missingTypesNoted = other.missingTypesNoted
    }

    /// The same client, whose requests, retries and waits all end by `deadline`.
    package func bounded(by deadline: ContinuousClock.Instant?) -> CloudKitClient {
        CloudKitClient(self, runDeadline: deadline)
    }

    /// Seconds left before the run's deadline, if it has one.
    private var secondsLeft: Double? { runDeadline.map { (($0 - ContinuousClock.now).seconds) } }

    /// Builds the signer from the configured key file. Nil signer means the remote is not
    /// configured.
    package convenience init(
        configuration: CloudKitConfiguration, policy: RetryPolicy = RetryPolicy(),
        logger: Logger
    ) throws(CloudKitConfigurationError) {
        var signer: CloudKitSigner?
        if configuration.database == .public, configuration.appUser == nil,
            let keyID = configuration.keyID,
            let keyFile = configuration.keyFile
        {
            signer = try CloudKitSigner(keyID: keyID, keyFile: keyFile)
        }
        self.init(configuration: configuration, signer: signer, policy: policy, logger: logger)
    }

    // MARK: Operations

    /// One page of records/query; pass the returned marker back for the next page.
    package func query(
        _ query: CloudKitQuery, zone: CloudKitZoneID = .defaultZone,
        resultsLimit: Int = maxResultsPerQuery,
        continuationMarker: String? = nil
    ) async throws(CloudKitError) -> CloudKitQueryPage {
        let request = QueryRequest(
            zoneID: zone, resultsLimit: min(resultsLimit, Self.maxResultsPerQuery),
            query: query, continuationMarker: continuationMarker)
        do {
            return try await send("records/query", body: request)
        } catch .schema(.notQueryable(let field, nil), let reason) {
            throw .schema(.notQueryable(field: field, recordType: query.recordType), reason: reason)
        }
    }

    /// Every record the query matches, page by page, handed to `page` as they arrive.
    package func queryAll(_ query: CloudKitQuery, zone: CloudKitZoneID = .defaultZone,
                         page: ([CloudKitRecordResult]) throws -> Void) async throws {
        var marker: String?
        var pages = ContinuationGuard(recordType: query.recordType)
        repeat {
            let result = try await self.query(query, zone: zone, continuationMarker: marker)
            try page(result.records)
            marker = try pages.next(after: result.continuationMarker)
        } while marker != nil
    }

    /// records/lookup, 200 names a request; one result per name, in order.
    package func lookup(recordNames: [String], zone: CloudKitZoneID = .defaultZone)
        async throws(CloudKitError) -> [CloudKitRecordResult]
    {
        var results: [CloudKitRecordResult] = []
        for chunk in recordNames.chunked(Self.maxOperationsPerRequest) {
            let request = LookupRequest(records: chunk.map { .init(recordName: $0) }, zoneID: zone)
            let response: RecordsResponse = try await send("records/lookup", body: request)
            results += response.records
        }
        return results
    }

    /// records/modify, 200 operations a request. A per-record error does not fail the request:
    /// every result is returned, in the order of the operations.
    package func modify(_ operations: [CloudKitOperation], zone: CloudKitZoneID = .defaultZone,
                       atomic: Bool = false) async throws(CloudKitError) -> [CloudKitRecordResult] {
        var results: [CloudKitRecordResult] = []
        for chunk in Self.requests(of: operations) {
            let response: RecordsResponse = try await send(
                "records/modify",
                body: ModifyRequest(operations: Array(chunk), zoneID: zone, atomic: atomic))
            results += response.records
        }
        return results
    }

    /// The most one request's body holds. Apple's Web Services reference gives no byte limit (200
    /// operations, 1 MB a record); native CloudKit's limitExceeded gives "2 MB per request" as
    /// the guideline, so requests stay under it (the emulator refuses more).
    package static let maxRequestBytes = 2_000_000

    /// Operations in requests of at most 200 and at most `maxRequestBytes` (less room for the
    /// envelope); an operation larger than that on its own goes alone, for CloudKit to judge.
    static func requests(of operations: [CloudKitOperation]) -> [ArraySlice<CloudKitOperation>] {
        let budget = maxRequestBytes - 4_096
        let encoder = JSONEncoder()
        var chunks: [ArraySlice<CloudKitOperation>] = []
        var start = operations.startIndex
        var bytes = 0
        for index in operations.indices {
            // An operation that cannot be encoded fails in `send`, with the reason.
            let size = ((try? encoder.encode(operations[index]))?.count ?? 0) + 1
            if index > start && (index - start >= maxOperationsPerRequest || bytes + size > budget)
            {
                chunks.append(operations[start..<index])
                start = index
                bytes = 0
            }
            bytes += size
        }
        if start < operations.endIndex { chunks.append(operations[start...]) }
        return chunks
    }

    /// users/caller: the cheapest authenticated call, proof that the key works.
    package func caller() async throws(CloudKitError) -> CloudKitCaller {
        try await send("users/caller", body: nil as QueryRequest?, method: "GET")
    }

    // MARK: Transport

    /// The client's own work (JSON, signing, decoding the answer) runs on the shared pool, not on
    /// the thread of the pipeline that awaits it: requests in flight side by side (migrate's) then
    /// encode and decode on both cores instead of taking turns on that one thread.
    private func send<Body: Encodable, Response: Decodable & Sendable>(
        _ operation: String, body: Body?,
        method: String = "POST"
    ) async throws(CloudKitError) -> Response {
        try await withTaskExecutorPreference(globalConcurrentExecutor) {
            () async throws(CloudKitError) -> Response in
            try await self.transport(operation, body: body, method: method)
        }
    }

    private func transport<Body: Encodable, Response: Decodable & Sendable>(
        _ operation: String, body: Body?,
        method: String
    ) async throws(CloudKitError) -> Response {
        let bytes: [UInt8]
        do {
            bytes = try body.map { Array(try JSONEncoder().encode($0)) } ?? []
        } catch {
            throw .unexpectedResponse(httpStatus: 0, detail: "cannot encode the request: \(error)")
        }
        let started = ContinuousClock.now
        var attempt = 0
        while true {
            attempt += 1
            if let left = secondsLeft, left <= 0 { throw .outOfTime }
            do {
                return try await limiter.run { () async throws(CloudKitError) -> Response in
                    try await self.attempt(operation, method: method, body: bytes)
                }
            } catch {
                // Cancelled (a command interrupted, a sibling task failed): no further attempt.
                guard !Task.isCancelled else {
                    throw error.isTransient ? .gaveUp(attempts: attempt, last: error) : error
                }
                guard RetryPolicy.retries(error), attempt < policy.maxAttempts else {
                    throw attempt > 1 && error.isTransient
                        ? .gaveUp(attempts: attempt, last: error) : error
                }
                let wait = policy.delay(afterAttempt: attempt, retryAfter: error.retryAfter)
                let elapsed = (ContinuousClock.now - started).seconds
                // CloudKit asked for a wait the run's time cannot hold: its answer (THROTTLED, with
                // its retry-after) is why the run stops, not the time limit.
                if let left = secondsLeft, wait >= left { throw error.retryAfter != nil ? .gaveUp(attempts: attempt, last: error) : .outOfTime }
                guard elapsed + wait <= policy.maxTotalSeconds else { throw .gaveUp(attempts: attempt, last: error) }
                logger.info("retrying CloudKit request", metadata: ["operation": "\(operation)", "attempt": "\(attempt)",
                                                                   "wait": "\(String(format: "%.2f", wait))s", "error": "\(error.category)"])
                let failure = error
                // CloudKit asked this client to wait: every request of it waits, not only this one
                // (the others would be throttled in turn, each costing an attempt).
                if error.retryAfter != nil {
                    await limiter.pause(until: ContinuousClock.now + .seconds(wait))
                }
                do {
                    try await Task.sleep(for: .seconds(wait))
                } catch {
                    // Cancelled while waiting: stop retrying, with the failure that caused the
                    // wait.
                    throw .gaveUp(attempts: attempt, last: failure)
                }
            }
        }
    }

    /// One request, no retry. `dateHeader` receives the response's Date header (doctor's clock check).
    func attempt<Response: Decodable & Sendable>(
        _ operation: String, method: String, body: [UInt8],
        dateHeader: (String?) -> Void = { _ in }
    ) async throws(CloudKitError) -> Response {
        let request = try signedRequest(operation, method: method, body: body)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await perform(request)
        } catch let error as CloudKitError {
            throw error
        } catch {
            throw .network(reason: masked(Self.describe(error)))
        }
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        dateHeader(http?.value(forHTTPHeaderField: "Date"))
        guard status == 200 else { throw failure(status: status, data: data, response: http) }
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw .unexpectedResponse(
                httpStatus: status, detail: "\(error)".prefix(200).description)
        }
    }

    /// The request for `operation`, signed with the server-to-server key unless an app user's
    /// tokens go with it.
    private func signedRequest(_ operation: String, method: String, body: [UInt8])
        throws(CloudKitError) -> URLRequest
    {
        let subpath = configuration.subpath(operation)
        // An app user's tokens go in the query string; the subpath (what a signature covers) stays
        // bare.
        let query = configuration.appUser.map { "?" + $0.queryString } ?? ""
        guard let url = URL(string: configuration.baseURL + subpath + query) else {
            throw .unexpectedResponse(
                httpStatus: 0,
                detail: "bad URL \(URLCredentials.masked(configuration.baseURL) + subpath)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if method == "POST" {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if configuration.appUser == nil, let signer {
            do {
                for (name, value) in try signer.headers(body: body, subpath: subpath) {
                    request.setValue(value, forHTTPHeaderField: name)
                }
            } catch {
                throw .service(
                    code: .authenticationFailed, httpStatus: 0, reason: error.localizedDescription,
                    retryAfter: nil)
            }
        }
        return request
    }

    /// What an answer other than 200 means: CloudKit's error body when there is one, else the
    /// HTTP status.
    private func failure(status: Int, data: Data, response: HTTPURLResponse?) -> CloudKitError {
        // Throttling may come with only an HTTP Retry-After header (seconds or an HTTP date).
        let headerRetryAfter = Self.retryAfter(
            header: response?.value(forHTTPHeaderField: "Retry-After"))
        if let envelope = try? JSONDecoder().decode(CloudKitErrorEnvelope.self, from: data) {
            if envelope.serverErrorCode == CloudKitServerErrorCode.badRequest.rawValue,
                let reason = envelope.reason,
                let problem = CloudKitError.schemaProblem(in: reason)
            {
                // Said once per type: readers of legacy types meet it on every page of every run.
                if case .missingType(let type) = problem, missingTypesNoted.first(type) {
                    logger.info(
                        "the container has no record type \(type): no records of it to read",
                        metadata: ["recordType": "\(type)"])
                }
                return .schema(problem, reason: reason)
            }
            return .service(
                code: CloudKitServerErrorCode(rawValue: envelope.serverErrorCode),
                httpStatus: status,
                reason: masked(envelope.reason ?? "no reason given"),
                retryAfter: envelope.retryAfter ?? headerRetryAfter)
        }
        if status == 429 || status == 503 {
            return .service(
                code: status == 429 ? .throttled : .tryAgainLater, httpStatus: status,
                reason: "HTTP \(status) without a CloudKit error body", retryAfter: headerRetryAfter
            )
        }
        if (300..<400).contains(status) {
            let location = response?.value(forHTTPHeaderField: "Location") ?? "nowhere"
            return .unexpectedResponse(httpStatus: status, detail: "the server redirected to "
                + "\(URLComponents(string: location)?.host ?? location); redirects are not followed "
                + "(the request's signed headers would go with it): check --ck-base-url")
        }
        return .unexpectedResponse(
            httpStatus: status, detail: masked(String(decoding: data.prefix(200), as: UTF8.self)))
    }

    /// Text from the network or a server, an app user's tokens masked (it may quote the URL).
    private func masked(_ text: String) -> String { configuration.appUser?.masking(text) ?? text }

    /// One exchange, cut at `requestDeadline`: URLSession's own timeout is an idle limit, so a
    /// server sending a byte every few seconds would hold a request (and a cron job) for hours.
    /// The answer is read up to `maxResponseBytes` (see `BoundedExchanges`).
    private func perform(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let deadline = min(requestDeadline, max(secondsLeft ?? requestDeadline, 0.001))
        let runEnds = secondsLeft.map { $0 <= requestDeadline } ?? false
        let exchanges = self.exchanges
        let task = session.dataTask(with: request)
        // Cancelled mid-request: the call ends at once, rather than when the server answers or the
        // deadline passes, up to a minute later. The URLSession task is left to that deadline, not
        // cancelled: FoundationNetworking traps ("a task that is not in the registry") when a
        // cancel meets the task's own completion, which a sibling's failure made happen (a live
        // audit's schema error crashed 1 run in 40 under load).
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchanges.start(task) { continuation.resume(with: $0) }
                // Cancelled before the exchange was registered: the handler found nothing to end.
                if Task.isCancelled { exchanges.abandon(task, with: CloudKitError.cancelled) }
                // Weakly: the timer outlives most requests by up to a minute, and a task it held on
                // to kept its request body (a page of records) alive that long: 0.1 MB a request,
                // which a resync of 100,000 records piled up to 80 MB.
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak task] in
                    guard let task else { return }
                    exchanges.abandon(
                        task, with: runEnds ? CloudKitError.outOfTime : URLError(.timedOut))
                    // A task still running at its deadline is ended (a server that trickles would
                    // hold it for hours); one that finished is left alone.
                    if task.state == .running { task.cancel() }
                }
            }
        } onCancel: {
            exchanges.abandon(task, with: CloudKitError.cancelled)
        }
    }

    /// `Retry-After: 120` or `Retry-After: Fri, 31 Dec 1999 23:59:59 GMT`, as seconds from now.
    static func retryAfter(header: String?, now: Date = Date()) -> Double? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else {
            return nil
        }
        if let seconds = Double(header) { return RetryPolicy.usable(seconds, upTo: 86_400) }
        return HTTPDate.parse(header).map { max($0.timeIntervalSince(now), 0) }
    }

    static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return "\(error)" }
        switch urlError.code {
        case .cannotConnectToHost: return "connection refused"
        case .networkConnectionLost: return "connection closed mid-response"
        case .timedOut: return "timed out"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
            return "TLS failed"
        case .notConnectedToInternet: return "no network"
        default: return urlError.localizedDescription
        }
    }
}

/// Which names were already noted; shared by a client and its bounded copies.
final class MissingTypeNotes: Sendable {
    private let noted = Mutex<Set<String>>([])

    /// True the first time `type` is seen.
    func first(_ type: String) -> Bool { noted.withLock { $0.insert(type).inserted } }
}
