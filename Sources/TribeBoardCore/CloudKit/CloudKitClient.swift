import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A CloudKit Web Services client over URLSession: signed requests, errors classified as the
/// seeds require, transient ones retried within bounds, and at most `maxConcurrentRequests` in
/// flight whatever the caller does.
public final class CloudKitClient: Sendable {
    public static let maxOperationsPerRequest = 200
    public static let maxResultsPerQuery = 200

    public let configuration: CloudKitConfiguration
    private let signer: CloudKitSigner?
    private let session: URLSession
    private let policy: RetryPolicy
    private let limiter: ConcurrencyLimiter
    private let logger: Logger

    public init(configuration: CloudKitConfiguration, signer: CloudKitSigner?, policy: RetryPolicy = RetryPolicy(),
                maxConcurrentRequests: Int = 4, requestTimeout: Double = 30, logger: Logger) {
        self.configuration = configuration
        self.signer = signer
        self.policy = policy
        self.limiter = ConcurrencyLimiter(limit: maxConcurrentRequests)
        self.logger = logger
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = requestTimeout
        sessionConfiguration.httpMaximumConnectionsPerHost = maxConcurrentRequests
        session = URLSession(configuration: sessionConfiguration)
    }

    /// Builds the signer from the configured key file. Nil signer means the remote is not configured.
    public convenience init(configuration: CloudKitConfiguration, policy: RetryPolicy = RetryPolicy(), logger: Logger) throws(CloudKitConfigurationError) {
        var signer: CloudKitSigner?
        if configuration.database == .public, let keyID = configuration.keyID, let keyFile = configuration.keyFile {
            signer = try CloudKitSigner(keyID: keyID, keyFile: keyFile)
        }
        self.init(configuration: configuration, signer: signer, policy: policy, logger: logger)
    }

    // MARK: Operations

    /// One page of records/query; pass the returned marker back for the next page.
    public func query(_ query: CloudKitQuery, zone: CloudKitZoneID = .defaultZone, resultsLimit: Int = maxResultsPerQuery,
                      continuationMarker: String? = nil) async throws(CloudKitError) -> CloudKitQueryPage {
        let request = QueryRequest(zoneID: zone, resultsLimit: min(resultsLimit, Self.maxResultsPerQuery),
                                   query: query, continuationMarker: continuationMarker)
        return try await send("records/query", body: request)
    }

    /// Every record the query matches, page by page, handed to `page` as they arrive.
    public func queryAll(_ query: CloudKitQuery, zone: CloudKitZoneID = .defaultZone,
                         page: ([CloudKitRecordResult]) throws -> Void) async throws {
        var marker: String?
        repeat {
            let result = try await self.query(query, zone: zone, continuationMarker: marker)
            try page(result.records)
            marker = result.continuationMarker
        } while marker != nil
    }

    /// records/lookup, 200 names a request; one result per name, in order.
    public func lookup(recordNames: [String], zone: CloudKitZoneID = .defaultZone) async throws(CloudKitError) -> [CloudKitRecordResult] {
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
    public func modify(_ operations: [CloudKitOperation], zone: CloudKitZoneID = .defaultZone,
                       atomic: Bool = false) async throws(CloudKitError) -> [CloudKitRecordResult] {
        var results: [CloudKitRecordResult] = []
        for chunk in operations.chunked(Self.maxOperationsPerRequest) {
            let response: RecordsResponse = try await send("records/modify",
                                                           body: ModifyRequest(operations: Array(chunk), zoneID: zone, atomic: atomic))
            results += response.records
        }
        return results
    }

    /// users/caller: the cheapest authenticated call, proof that the key works.
    public func caller() async throws(CloudKitError) -> CloudKitCaller {
        try await send("users/caller", body: nil as QueryRequest?, method: "GET")
    }

    // MARK: Transport

    private func send<Body: Encodable, Response: Decodable & Sendable>(_ operation: String, body: Body?,
                                                           method: String = "POST") async throws(CloudKitError) -> Response {
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
            do {
                return try await limiter.run { () async throws(CloudKitError) -> Response in
                    try await self.attempt(operation, method: method, body: bytes)
                }
            } catch {
                guard error.isTransient, attempt < policy.maxAttempts else {
                    throw attempt > 1 && error.isTransient ? .gaveUp(attempts: attempt, last: error) : error
                }
                let wait = policy.delay(afterAttempt: attempt, retryAfter: error.retryAfter)
                let elapsed = (ContinuousClock.now - started).seconds
                guard elapsed + wait <= policy.maxTotalSeconds else { throw .gaveUp(attempts: attempt, last: error) }
                logger.info("retrying CloudKit request", metadata: ["operation": "\(operation)", "attempt": "\(attempt)",
                                                                   "wait": "\(String(format: "%.2f", wait))s", "error": "\(error.category)"])
                try? await Task.sleep(for: .seconds(wait))
            }
        }
    }

    /// One request, no retry. `dateHeader` receives the response's Date header (doctor's clock check).
    func attempt<Response: Decodable & Sendable>(_ operation: String, method: String, body: [UInt8],
                                                 dateHeader: (String?) -> Void = { _ in }) async throws(CloudKitError) -> Response {
        let subpath = configuration.subpath(operation)
        guard var components = URLComponents(string: configuration.baseURL + subpath) else {
            throw .unexpectedResponse(httpStatus: 0, detail: "bad URL \(configuration.baseURL + subpath)")
        }
        if configuration.database != .public, let token = configuration.apiToken, let webToken = configuration.webAuthToken {
            components.queryItems = [URLQueryItem(name: "ckAPIToken", value: token), URLQueryItem(name: "ckWebAuthToken", value: webToken)]
        }
        guard let url = components.url else { throw .unexpectedResponse(httpStatus: 0, detail: "bad URL") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if method == "POST" {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let signer {
            do {
                for (name, value) in try signer.headers(body: body, subpath: subpath) { request.setValue(value, forHTTPHeaderField: name) }
            } catch {
                throw .service(code: .authenticationFailed, httpStatus: 0, reason: error.localizedDescription, retryAfter: nil)
            }
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .network(reason: Self.describe(error))
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        dateHeader((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Date"))
        if status == 200 {
            do {
                return try JSONDecoder().decode(Response.self, from: data)
            } catch {
                throw .unexpectedResponse(httpStatus: status, detail: "\(error)".prefix(200).description)
            }
        }
        if let envelope = try? JSONDecoder().decode(CloudKitErrorEnvelope.self, from: data) {
            throw .service(code: CloudKitServerErrorCode(rawValue: envelope.serverErrorCode), httpStatus: status,
                           reason: envelope.reason ?? "no reason given", retryAfter: envelope.retryAfter)
        }
        throw .unexpectedResponse(httpStatus: status, detail: String(decoding: data.prefix(200), as: UTF8.self))
    }

    static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return "\(error)" }
        switch urlError.code {
        case .cannotConnectToHost: return "connection refused"
        case .networkConnectionLost: return "connection closed mid-response"
        case .timedOut: return "timed out"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate: return "TLS failed"
        case .notConnectedToInternet: return "no network"
        default: return urlError.localizedDescription
        }
    }
}

/// At most `limit` requests in flight, in arrival order.
actor ConcurrencyLimiter {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { self.limit = max(limit, 1) }

    func run<Result: Sendable>(_ body: @Sendable () async throws(CloudKitError) -> Result) async throws(CloudKitError) -> Result {
        if running >= limit {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            running += 1
        }
        defer { release() }
        return try await body()
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

extension Array {
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
