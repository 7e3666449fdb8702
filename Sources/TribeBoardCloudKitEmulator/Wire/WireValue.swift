import Foundation

/// A JSON value as it arrives on the wire. The emulator's own: it shares nothing with the client,
/// so a wire mistake made by the client is not repeated here and gets caught.
public enum WireValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([WireValue])
    case object([String: WireValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode([WireValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: WireValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // TIMESTAMP and INT64 values are integers on Apple's wire.
            if value == value.rounded(), abs(value) < 9e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public var string: String? {
        if case .string(let value) = self { return value } else { return nil }
    }
    public var number: Double? {
        if case .number(let value) = self { return value } else { return nil }
    }
    public var object: [String: WireValue]? {
        if case .object(let value) = self { return value } else { return nil }
    }
    public var array: [WireValue]? {
        if case .array(let value) = self { return value } else { return nil }
    }

    /// What filters compare: strings as they are, numbers as text, references by record name.
    var comparable: String? {
        switch self {
        case .string(let text): return text
        case .number(let number): return String(number)
        case .object(let object): return object["recordName"]?.string
        default: return nil
        }
    }
}
