import Foundation
import TribeBoardTestSupport

// The commands' `--json` reports as a script reads them, decoded by the tests' own types (never the
// toolkit's report types: a renamed or dropped key must fail here, not follow the rename). Each
// mirror declares only the keys the tests read; a key the report always writes is non-optional,
// so its absence fails the decoding. One file per command, named after its mirror
// (`ProvisionReportMirror.swift`); this one holds how a run's stdout is decoded.

/// stdout of a run that was not the report a test expected: the type, why, and what was printed.
package struct ReportDecodingError: Error, CustomStringConvertible {
    package let type: String
    package let underlying: any Error
    package let stdout: String
    package let stderr: String

    package var description: String {
        "stdout is not one \(type) (\(underlying)):\n\(stdout)\nstderr: \(stderr)"
    }
}

extension ProcessRunner.Result {
    /// stdout as exactly one JSON document of the given mirror (trailing text would not decode).
    package func report<Mirror: Decodable>(_ type: Mirror.Type) throws -> Mirror {
        do {
            return try JSONDecoder().decode(type, from: Data(stdout.utf8))
        } catch {
            throw ReportDecodingError(
                type: String(describing: type), underlying: error, stdout: stdout, stderr: stderr)
        }
    }
}

/// The keys of a JSON object, whatever they hold: what "unset fields are left out" is about (a
/// mirror's optional field cannot tell a left-out key from a `null`).
package struct JSONKeys: Decodable {
    package let keys: Set<String>
    /// The keys of the members that are objects themselves, by member.
    package let objects: [String: JSONKeys]

    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        keys = Set(container.allKeys.map(\.stringValue))
        var objects: [String: JSONKeys] = [:]
        for key in container.allKeys {
            // A member that is not an object (a number, a list…) has no keys: not listed.
            if let nested = try? container.decode(JSONKeys.self, forKey: key) {
                objects[key.stringValue] = nested
            }
        }
        self.objects = objects
    }
}
