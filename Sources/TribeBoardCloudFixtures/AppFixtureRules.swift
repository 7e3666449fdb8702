import Foundation
import TribeBoardTestSupport
import TribeBoardCloudKit

/// The app's rules read from the app's own source (Tests/Fixtures/app, SOURCE.md names the
/// commit), not from the toolkit: field names from `CloudKitConstants.swift`, the fields each
/// `updateFromCKRecord` requires (and their types), the role and status values, and the
/// validators' lengths and characters from `Validation.swift`. `violations(of:)` then judges a
/// record as the app would on download.
package struct AppFixtureRules: Sendable {
    package struct Required: Sendable, Equatable {
        package var field: String
        package var type: String
        package var isUUID: Bool
        package var allowedValues: [String]?
    }

    package struct NameRule: Sendable {
        package var lengths: ClosedRange<Int>
        package var extraCharacters: String
    }

    package var required: [String: [Required]] = [:]
    package var familyName: NameRule
    package var displayName: NameRule
    package var codeLengths: ClosedRange<Int>

    package static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Tests/Fixtures/app")

    package static func load() throws -> AppFixtureRules {
        func read(_ name: String) throws -> String {
            try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        let constants = matches(
            #"static let (\w+) = "([^"]+)""#, in: try read("CloudKitConstants.swift"))
        let fieldNames = Dictionary(
            constants.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        let roleSource = try read("Role.swift")
        let values = [
            "Role": enumValues("Role", roleSource),
            "MembershipStatus": enumValues("MembershipStatus", roleSource)
        ]
        var required: [String: [Required]] = [:]
        for (type, file) in [
            ("Family", "Family.swift"), ("UserProfile", "UserProfile.swift"),
            ("Membership", "Membership.swift")
        ] {
            let source = try read(file)
            guard let start = source.range(of: "func updateFromCKRecord"),
                let end = source.range(
                    of: "throw CloudKitSyncError.invalidRecord",
                    range: start.upperBound..<source.endIndex)
            else {
                throw CocoaError(
                    .fileReadCorruptFile,
                    userInfo: [NSLocalizedDescriptionKey: "\(file): no decoder guard"])
            }
            let guardText = String(source[start.upperBound..<end.lowerBound])
            required[type] = matches(
                #"let (\w+) = record\[CKFieldName\.(\w+)\] as\? (\w+)"#, in: guardText
            ).map { match in
                let uuid = guardText.contains("UUID(uuidString: \(match[0]))")
                let enumType = matches(#"(\w+)\(rawValue: "# + match[0] + #"\)"#, in: guardText)
                    .first?.first
                return Required(
                    field: fieldNames[match[1]] ?? match[1], type: match[2], isUUID: uuid,
                    allowedValues: enumType.flatMap { values[$0] })
            }
        }
        let validation = try read("Validation.swift")
        return AppFixtureRules(
            required: required, familyName: try nameRule("validateFamilyName", validation),
            displayName: try nameRule("validateDisplayName", validation),
            codeLengths: try codeRule(validation))
    }

    /// What the app would refuse in this record: empty when it decodes and validates.
    package func violations(of record: CloudKitRecord) -> [String] {
        guard let type = record.recordType, let fields = required[type] else { return [] }
        var problems: [String] = []
        for rule in fields {
            guard let field = record.fields?[rule.field] else {
                problems.append("\(type).\(rule.field) missing"); continue
            }
            switch rule.type {
            case "String":
                guard case .string(let text) = field.value else {
                    problems.append("\(type).\(rule.field) not a string"); continue
                }
                if rule.isUUID, UUID(uuidString: text) == nil {
                    problems.append("\(type).\(rule.field) not a UUID")
                }
                if let allowed = rule.allowedValues, !allowed.contains(text) {
                    problems.append("\(type).\(rule.field) = \(text)")
                }
            case "Date":
                if field.type != "TIMESTAMP" || field.value.number == nil {
                    problems.append("\(type).\(rule.field) not a date")
                }
            default:
                problems.append("\(type).\(rule.field): type \(rule.type) unknown to this check")
            }
        }
        if type == "Family", let name = record.string("name") {
            problems += check(name, familyName, "Family name")
        }
        if type == "Family", let code = record.string("code"),
            !(codeLengths.contains(code.count)
                && code.unicodeScalars.allSatisfy({
                    ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                }))
        {
            problems.append("Family code \(code) refused")
        }
        if type == "UserProfile", let name = record.string("displayName") {
            problems += check(name, displayName, "Display name")
        }
        return problems
    }

    private func check(_ name: String, _ rule: NameRule, _ label: String) -> [String] {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed = CharacterSet.alphanumerics.union(.whitespaces).union(
            CharacterSet(charactersIn: rule.extraCharacters))
        var problems: [String] = []
        if !rule.lengths.contains(trimmed.count) {
            problems.append("\(label) \"\(name)\" has \(trimmed.count) characters")
        }
        if !trimmed.unicodeScalars.allSatisfy({ allowed.contains($0) }) {
            problems.append("\(label) \"\(name)\" has invalid characters")
        }
        return problems
    }

    private static func nameRule(_ function: String, _ source: String) throws -> NameRule {
        guard let start = source.range(of: "func \(function)"),
            let end = source.range(
                of: "return ValidationResult(isValid: true",
                range: start.upperBound..<source.endIndex)
        else {
            throw CocoaError(
                .fileReadCorruptFile,
                userInfo: [NSLocalizedDescriptionKey: "Validation.swift: no \(function)"])
        }
        let body = String(source[start.upperBound..<end.lowerBound])
        let minimum = matches(#"count >= (\d+)"#, in: body).first.flatMap { Int($0[0]) } ?? 1
        guard let maximum = matches(#"count <= (\d+)"#, in: body).first.flatMap({ Int($0[0]) }),
            let extra = matches(#"CharacterSet\(charactersIn: "([^"]*)"\)"#, in: body).first?.first,
            minimum <= maximum
        else {
            throw CocoaError(
                .fileReadCorruptFile,
                userInfo: [NSLocalizedDescriptionKey: "Validation.swift: \(function) unreadable"])
        }
        return NameRule(lengths: minimum...maximum, extraCharacters: extra)
    }

    private static func codeRule(_ source: String) throws -> ClosedRange<Int> {
        guard
            let match = matches(#"count >= (\d+) && trimmedCode\.count <= (\d+)"#, in: source)
                .first,
            let low = Int(match[0]), let high = Int(match[1]), low <= high
        else {
            throw CocoaError(
                .fileReadCorruptFile,
                userInfo: [NSLocalizedDescriptionKey: "Validation.swift: no code length"])
        }
        return low...high
    }

    private static func enumValues(_ name: String, _ source: String) -> [String] {
        guard let start = source.range(of: "enum \(name):"),
            let end = source.range(of: "\n}", range: start.upperBound..<source.endIndex)
        else { return [] }
        return matches(
            #"case \w+ = "([^"]+)""#, in: String(source[start.upperBound..<end.lowerBound])
        ).map { $0[0] }
    }

    /// Capture groups of every match.
    private static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).map { match in
            (1..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }
}
