import Foundation
import Synchronization

/// Faults chosen at start, so that tests (and an operator rehearsing a run) meet what the real
/// service does on a bad day. Fractions are per request, drawn from a seeded generator so that a
/// failing test can be replayed.
public struct EmulatorFaults: Sendable, Equatable {
    /// 503 TRY_AGAIN_LATER, with an HTTP `Retry-After` header.
    public var unavailable = 0.0
    /// 503 with only the HTTP `Retry-After` header and no body, as a proxy in front of the service
    /// sends.
    public var bareUnavailable = 0.0
    /// 429 THROTTLED with `retryAfter` in the body and the HTTP `Retry-After` header.
    public var throttled = 0.0
    /// Per record of a records/modify: THROTTLED in that record's entry, with its own `retryAfter`,
    /// while the other records of the request are saved.
    public var recordThrottled = 0.0
    /// Seconds in `Retry-After` (header and 429 body). Apple sends whole seconds; fractions keep
    /// tests fast.
    public var throttleRetryAfter = 1.0
    /// 500 INTERNAL_ERROR with `retryAfter` (the retry-after seconds): one that may be retried
    /// then.
    public var internalError = 0.0
    /// 500 INTERNAL_ERROR without `retryAfter`: Apple's "nonrecoverable error", not to be retried.
    public var bareInternalError = 0.0
    /// The connection is closed after the headers, before the promised body.
    public var dropConnection = 0.0
    /// A records/modify answered QUOTA_EXCEEDED (413) as a whole: the container's quota is used up.
    public var quotaExceeded = 0.0
    /// Added to every response.
    public var latency = Duration.zero
    public var seed: UInt64 = 1

    public init() {}

    public var total: Double { requestFaults.reduce(0) { $0 + $1.fraction } }

    /// The faults that answer a whole request, each with its fraction, in the order a draw meets
    /// them.
    var requestFaults: [(fault: InjectedFault, fraction: Double)] {
        [(.unavailable, unavailable), (.bareUnavailable, bareUnavailable), (.throttled, throttled),
         (.internalError, internalError), (.bareInternalError, bareInternalError),
         (.drop, dropConnection), (.quotaExceeded, quotaExceeded)]
    }

    /// Parses `kind=fraction` lists such as
    /// `503=0.1,503-bare=0.1,429=0.1,500=0.05,drop=0.05,latency=20ms`, or `down`.
    public static func parse(_ text: String) throws -> EmulatorFaults {
        var faults = EmulatorFaults()
        for item in text.split(separator: ",") where !item.isEmpty {
            // Down: every connection is cut before a full response, as by a dead backend.
            if item == "down" {
                faults.dropConnection = 1
                continue
            }
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw EmulatorError.badOption("fault \"\(item)\" is not kind=value")
            }
            let (kind, value) = (parts[0], parts[1])
            if kind == "latency" {
                guard let milliseconds = Int(value.replacingOccurrences(of: "ms", with: "")), (0...60_000).contains(milliseconds) else {
                    throw EmulatorError.badOption("latency takes milliseconds from 0 to 60000, e.g. latency=20ms")
                }
                faults.latency = .milliseconds(milliseconds)
                continue
            }
            if kind == "seed" {
                guard let seed = UInt64(value) else {
                    throw EmulatorError.badOption("seed takes a whole number")
                }
                faults.seed = seed
                continue
            }
            if kind == "retry-after" {
                guard let seconds = Double(value), seconds.isFinite, (0...86_400).contains(seconds)
                else {
                    throw EmulatorError.badOption("retry-after takes seconds from 0 to 86400")
                }
                faults.throttleRetryAfter = seconds
                continue
            }
            guard let fraction = Double(value), fraction.isFinite, (0...1).contains(fraction) else {
                throw EmulatorError.badOption("fault \(kind) takes a fraction between 0 and 1")
            }
            switch kind {
            case "503": faults.unavailable = fraction
            case "503-bare": faults.bareUnavailable = fraction
            case "record-429": faults.recordThrottled = fraction
            case "429": faults.throttled = fraction
            case "500": faults.internalError = fraction
            case "500-bare": faults.bareInternalError = fraction
            case "drop": faults.dropConnection = fraction
            case "quota": faults.quotaExceeded = fraction
            default:
                throw EmulatorError.badOption(
                    "unknown fault \"\(kind)\" (known: 503, 503-bare, 429, record-429, "
                        + "500, 500-bare, drop, quota, latency, retry-after, seed, down)")
            }
        }
        guard faults.total <= 1 else {
            throw EmulatorError.badOption("fault fractions add up to more than 1")
        }
        return faults
    }
}

public enum EmulatorError: Error, LocalizedError, Equatable {
    case badOption(String)
    case cannotLoad(path: String, reason: String)
    case badSchema(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .badOption(let message): return message
        case .cannotLoad(let path, let reason): return "cannot load \(path): \(reason)"
        case .badSchema(let path, let reason):
            return "\(path) is not a CloudKit schema (.ckdb): \(reason)"
        }
    }
}

/// What the fault plan decided for one request.
enum InjectedFault: Equatable {
    case none, unavailable, bareUnavailable, throttled, internalError, bareInternalError, drop,
        quotaExceeded
}

/// SplitMix64: small, seeded, good enough to spread faults.
final class FaultDice: Sendable {
    private let state: Mutex<UInt64>

    init(seed: UInt64) { state = Mutex(seed) }

    func roll(_ faults: EmulatorFaults) -> InjectedFault {
        let draw = next()
        var threshold = 0.0
        for (fault, fraction) in faults.requestFaults {
            threshold += fraction
            if draw < threshold { return fault }
        }
        return .none
    }

    /// Whether one record of a modify is throttled.
    func throttlesRecord(_ faults: EmulatorFaults) -> Bool {
        faults.recordThrottled > 0 && next() < faults.recordThrottled
    }

    private func next() -> Double {
        state.withLock { value in
            value &+= 0x9E37_79B9_7F4A_7C15
            var z = value
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 53)
        }
    }
}
