import Foundation
import Testing

/// `CommandContext.fail` takes `some DocumentedError`, so the compiler checks every typed throw a
/// command catches; one part still throws untyped errors (provision's immediate upload) and
/// goes through `fail(untyped:)`. For those, every error type declared in Sources
/// documents itself (`DocumentedError`: a `kind` and a status), is carried by one that does
/// (`case repair(CodeRepairError)`), or is listed below with where it stops: a new error type
/// fails here until it is one of the three, rather than reaching a run as `unexpected`.
struct DocumentedErrorTypesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Modules that tests and the emulator use, never a command.
    static let testOnly: Set<String> = ["TribeBoardTestSupport", "TribeBoardCloudKitEmulator", "TribeBoardCloudFixtures",
                                        "TribeBoardProjectFixtures", "TribeBoardStoreFixtures", "TribeBoardReportMirrors"]

    /// Error types that stop where they are thrown, and what they become there.
    static let stopWhereThrown: [String: String] = [
        "XcodeProjectError": "doctor's container checks turn it into a finding",
        "OpenStepPlistError": "the project reader turns it into XcodeProjectError",
        "StandardOutputError": "stdout is gone: ProgramName exits with ioError, no document to print",
        "RandomSourceError": "ProvisioningWriter fails the row; FamilyCodeGenerator throws ProvisionConfigurationError",
        "ProvisionConfigurationError": "Provisioner turns it into ProvisionError",
        "FamilyCodeFormatError": "a typed code's format: a row's problem, a usage error or a finding",
        "RowError": "a CSV row's problem, in the row's result",
        "AppRecordRefusal": "a record the app would refuse: resync sets the row aside (a Result)",
        "CloudKitRecordError": "one record's error in CloudKit's answer, a result per record",
    ]

    struct Declaration {
        let name: String
        let inherits: String
        /// The declaration's text up to its closing brace.
        let body: String
    }

    static func sources() throws -> [(module: String, text: String)] {
        let sources = root.appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        var files: [(String, String)] = []
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift"), let module = path.split(separator: "/").first.map(String.init),
                  !testOnly.contains(module) else { continue }
            files.append((module, try String(contentsOfFile: sources.appendingPathComponent(path).path, encoding: .utf8)))
        }
        return files
    }

    /// Every type declared with an inheritance clause, by its own (unqualified) name.
    static func declarations(in text: String) -> [Declaration] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let pattern = /^(\s*)(?:(?:package|public|private|fileprivate|internal)\s+)?(?:final\s+)?(?:enum|struct|class|actor)\s+(\w+)\s*:\s*([^{]*)\{/
        var found: [Declaration] = []
        for (index, line) in lines.enumerated() {
            guard let match = line.firstMatch(of: pattern) else { continue }
            let indent = String(match.1)
            let end = lines[(index + 1)...].firstIndex { $0 == indent + "}" } ?? lines.endIndex
            found.append(Declaration(name: String(match.2), inherits: String(match.3),
                                     body: lines[index..<end].joined(separator: "\n")))
        }
        return found
    }

    static func inherits(_ clause: String, _ name: String) -> Bool {
        clause.split(whereSeparator: { $0 == "," || $0.isWhitespace }).contains { $0 == Substring(name) }
    }

    @Test func everyErrorTypeIsDocumentedCarriedOrStopsWhereThrown() throws {
        let files = try Self.sources()
        let declarations = files.flatMap { Self.declarations(in: $0.text) }
        let errors = Set(declarations.filter { Self.inherits($0.inherits, "Error") }.map(\.name))
        #expect(errors.count > 20, "the scan finds the error types: \(errors.sorted())")
        var documented = Set(declarations.filter { Self.inherits($0.inherits, "DocumentedError") }.map(\.name))
        for (_, text) in files {
            for match in text.matches(of: /extension\s+([\w.]+)\s*:\s*[^{]*\bDocumentedError\b/) {
                documented.insert(String(match.1.split(separator: ".").last ?? match.1))
            }
        }
        #expect(documented.count > 15, "the scan finds the conformances: \(documented.sorted())")
        let documentedBodies = declarations.filter { documented.contains($0.name) }.map(\.body)
        let carried = errors.filter { error in
            let carrier = try? Regex("case \\w+\\((\\w+:\\s*)?\(error)\\b")
            return documentedBodies.contains { body in carrier.map { body.contains($0) } ?? false }
        }
        let unaccounted = errors.subtracting(documented).subtracting(carried).subtracting(Self.stopWhereThrown.keys)
        #expect(unaccounted.isEmpty, "error types that would reach a command as `unexpected`: \(unaccounted.sorted())")
        // The list stays exact: a type documented, carried or gone since leaves it.
        let stale = Set(Self.stopWhereThrown.keys).subtracting(errors.subtracting(documented).subtracting(carried))
        #expect(stale.isEmpty, "listed but documented, carried or gone: \(stale.sorted())")
    }
}
