import Foundation

/// Any JSON value, decoded without loss: CloudKit field values vary by type, and a field of a type
/// we do not map (an ASSET, a LOCATION) must not make a whole page of records unreadable.
package enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Most values are strings, then numbers: trying them first avoids a thrown error per value.
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Timestamps are integral milliseconds: keep them integers on the wire.
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

    package var string: String? {
        if case .string(let value) = self { return value } else { return nil }
    }
    package var number: Double? {
        if case .number(let value) = self { return value } else { return nil }
    }
    package var object: [String: JSONValue]? {
        if case .object(let value) = self { return value } else { return nil }
    }
    package var array: [JSONValue]? {
        if case .array(let value) = self { return value } else { return nil }
    }
}
