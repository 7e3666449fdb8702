import Foundation

/// One `KEY[cond=value] = value` line, from a pbxproj `buildSettings` dictionary or an `.xcconfig`.
struct BuildSettingAssignment: Sendable, Equatable {
    package let key: String
    /// `[sdk=iphoneos*][config=Debug]`: every condition must hold for the assignment to apply.
    package let conditions: [BuildSettingCondition]
    package let value: String
    package let location: SourceLocation

    package init(
        key: String, conditions: [BuildSettingCondition] = [], value: String,
        location: SourceLocation
    ) {
        self.key = key
        self.conditions = conditions
        self.value = value
        self.location = location
    }

    /// Splits `CODE_SIGN_ENTITLEMENTS[sdk=macosx*][config=Debug]` into the key and its conditions.
    package static func parse(key written: String, value: String, location: SourceLocation)
        -> BuildSettingAssignment
    {
        guard let open = written.firstIndex(of: "[") else {
            return BuildSettingAssignment(
                key: written.trimmingCharacters(in: .whitespaces), value: value, location: location)
        }
        let key = written[..<open].trimmingCharacters(in: .whitespaces)
        var conditions: [BuildSettingCondition] = []
        for part in written[open...].split(separator: "]") {
            let body = part.drop { $0 == "[" || $0 == " " }
            // `[sdk=iphoneos*,arch=arm64]` is also accepted by Xcode.
            for clause in body.split(separator: ",") {
                let pieces = clause.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                if pieces.count == 2 {
                    conditions.append(BuildSettingCondition(name: pieces[0], pattern: pieces[1]))
                }
            }
        }
        return BuildSettingAssignment(
            key: key, conditions: conditions, value: value, location: location)
    }
}

/// `sdk=macosx*`, `config=Debug`, `arch=arm64`: a glob over one property of the build.
struct BuildSettingCondition: Sendable, Equatable {
    package let name: String
    let pattern: String

    func matches(_ context: BuildContext) -> Bool {
        switch name {
        case "sdk": return Self.glob(pattern, context.sdk)
        case "config": return Self.glob(pattern, context.configuration)
        // Doctor reads settings, not binaries: any architecture Xcode builds for applies.
        case "arch": return Self.glob(pattern, "arm64") || Self.glob(pattern, "x86_64")
        case "variant": return Self.glob(pattern, "normal")
        default: return false
        }
    }

    /// `*` matches any run of characters; everything else literally, as in Xcode's conditions.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        let pattern = Array(pattern.lowercased()), text = Array(text.lowercased())
        var p = 0, t = 0, star = -1, mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                star = p
                mark = t
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

/// The build a value is resolved for: one configuration of a target for one SDK.
package struct BuildContext: Sendable, Equatable, Hashable {
    package let configuration: String
    /// `iphoneos`, `macosx`, `watchos`, `appletvos`, `xros`: conditions are matched against it.
    package let sdk: String

    package init(configuration: String, sdk: String) {
        self.configuration = configuration
        self.sdk = sdk
    }
}

/// One level of Xcode's settings stack (lowest first: project xcconfig, project, target xcconfig,
/// target).
struct BuildSettingLayer: Sendable {
    package let name: String
    let assignments: [BuildSettingAssignment]
    /// `#include?` files that do not exist: where an unresolved variable may have come from.
    let missingOptionalIncludes: [String]

    package init(
        name: String, assignments: [BuildSettingAssignment], missingOptionalIncludes: [String] = []
    ) {
        self.name = name
        self.assignments = assignments
        self.missingOptionalIncludes = missingOptionalIncludes
    }

    /// The assignment Xcode applies: among those whose conditions hold, the most specific, then the
    /// last.
    func assignment(_ key: String, in context: BuildContext) -> BuildSettingAssignment? {
        var best: BuildSettingAssignment?
        for assignment in assignments
        where assignment.key == key && assignment.conditions.allSatisfy({ $0.matches(context) }) {
            if let current = best, current.conditions.count > assignment.conditions.count {
                continue
            }
            best = assignment
        }
        return best
    }
}
