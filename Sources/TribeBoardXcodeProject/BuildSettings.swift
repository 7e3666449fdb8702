import Foundation

/// A variable Xcode would have substituted but doctor could not: its name and where it would
/// come from, so that a finding can say so instead of showing a raw `$(…)`.
package struct UnresolvedVariable: Sendable, Equatable, Hashable {
    package let name: String
    package let hint: String
}

/// A value after substitution, with where it was written and what could not be resolved.
package struct ResolvedSetting: Sendable, Equatable {
    package let value: String
    /// Where the winning assignment is written (nil for values doctor supplies itself).
    package let location: SourceLocation?
    package let unresolved: [UnresolvedVariable]

    package var isResolved: Bool { unresolved.isEmpty }
}

/// Build settings as Xcode resolves them for one target, configuration and SDK: the layers
/// (project xcconfig, project, target xcconfig, target), `$(inherited)`, conditions, modifiers,
/// and the values Xcode supplies itself (`SRCROOT`, `TARGET_NAME`, `CONFIGURATION`...).
package struct BuildSettings: Sendable {
    package let context: BuildContext
    /// Lowest first.
    let layers: [BuildSettingLayer]
    let builtins: [String: String]
    /// Xcode reads an unset variable as empty; doctor does so only for paths (see `resolvedPath`).
    private var unsetIsEmpty = false
    static let maxDepth = 24

    init(context: BuildContext, layers: [BuildSettingLayer], builtins: [String: String]) {
        self.context = context
        self.layers = layers
        self.builtins = builtins
    }

    package func resolved(_ key: String) -> ResolvedSetting? {
        guard let (assignment, layer) = lookup(key, below: layers.count) else {
            guard let builtin = builtin(key) else { return nil }
            var unresolved: [UnresolvedVariable] = []
            let value = expand(
                builtin, key: key, layer: layers.count, depth: 0, unresolved: &unresolved)
            return ResolvedSetting(value: value, location: nil, unresolved: unresolved)
        }
        var unresolved: [UnresolvedVariable] = []
        let value = expand(
            assignment.value, key: key, layer: layer, depth: 0, unresolved: &unresolved)
        return ResolvedSetting(
            value: value, location: assignment.location,
            unresolved: Array(Set(unresolved)).sorted { $0.name < $1.name })
    }

    /// A path setting as Xcode would use it: unset variables read as empty (still reported).
    package func resolvedPath(_ key: String) -> ResolvedSetting? {
        var xcode = self
        xcode.unsetIsEmpty = true
        return xcode.resolved(key)
    }

    /// Any text (an entitlements value, an Info.plist string) expanded with these settings.
    package func expand(_ text: String) -> ResolvedSetting {
        var unresolved: [UnresolvedVariable] = []
        let value = expand(text, key: nil, layer: layers.count, depth: 0, unresolved: &unresolved)
        return ResolvedSetting(
            value: value, location: nil,
            unresolved: Array(Set(unresolved)).sorted { $0.name < $1.name })
    }

    private func lookup(_ key: String, below top: Int) -> (BuildSettingAssignment, Int)? {
        for index in stride(from: top - 1, through: 0, by: -1) {
            if let assignment = layers[index].assignment(key, in: context) {
                return (assignment, index)
            }
        }
        return nil
    }

    /// Values Xcode supplies when no layer sets them.
    private func builtin(_ key: String) -> String? {
        if let value = builtins[key] { return value }
        switch key {
        case "PRODUCT_NAME", "PRODUCT_MODULE_NAME": return "$(TARGET_NAME)"
        case "CFBundleIdentifier": return "$(PRODUCT_BUNDLE_IDENTIFIER)"
        case "CONFIGURATION": return context.configuration
        case "PLATFORM_NAME", "SDK_NAME": return context.sdk
        case "EFFECTIVE_PLATFORM_NAME": return context.sdk == "macosx" ? "" : "-" + context.sdk
        // Both are the signing team's id and a dot; they come from the provisioning profile.
        case "TeamIdentifierPrefix", "AppIdentifierPrefix":
            return lookup("DEVELOPMENT_TEAM", below: layers.count).map { _ in "$(DEVELOPMENT_TEAM)."
            }
        default: return nil
        }
    }

    private func expand(
        _ text: String, key: String?, layer: Int, depth: Int, unresolved: inout [UnresolvedVariable]
    ) -> String {
        guard text.contains("$") else { return text }
        guard depth < Self.maxDepth else {
            unresolved.append(
                UnresolvedVariable(
                    name: key ?? "a setting",
                    hint: "part of settings that refer to each other in a cycle"))
            return text
        }
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let after = rest.index(after: dollar)
            let close: Character? =
                after < rest.endIndex
                ? (rest[after] == "(" ? ")" : rest[after] == "{" ? "}" : nil) : nil
            guard let close,
                  let end = Self.matching(close, in: rest, from: rest.index(after: after)) else {
                output += rest[dollar...]
                return output
            }
            let inside = String(rest[rest.index(after: after)..<end])
            let reference = expand(
                inside, key: key, layer: layer, depth: depth + 1, unresolved: &unresolved)
            var parts = reference.split(separator: ":", omittingEmptySubsequences: false).map(
                String.init)
            let name = parts.removeFirst()
            if let value = variable(
                name, key: key, layer: layer, depth: depth, unresolved: &unresolved)
            {
                output += BuildSettingModifiers.apply(parts, to: value)
            } else if let fallback = BuildSettingModifiers.defaultValue(parts) {
                output += fallback
            } else {
                unresolved.append(UnresolvedVariable(name: name, hint: hint(for: name)))
                if !unsetIsEmpty { output += rest[dollar...end] }
            }
            rest = rest[rest.index(after: end)...]
        }
        return output + rest
    }

    private func variable(
        _ name: String, key: String?, layer: Int, depth: Int, unresolved: inout [UnresolvedVariable]
    ) -> String? {
        // `$(inherited)` and a setting naming itself both mean the value of the levels below.
        if name == "inherited" || name == key, let key {
            guard let (assignment, below) = lookup(key, below: layer) else {
                return builtin(key) == nil ? "" : builtin(key)
            }
            return expand(
                assignment.value, key: key, layer: below, depth: depth + 1, unresolved: &unresolved)
        }
        if let (assignment, found) = lookup(name, below: layers.count) {
            return expand(
                assignment.value, key: name, layer: found, depth: depth + 1, unresolved: &unresolved
            )
        }
        return builtin(name).map {
            expand($0, key: name, layer: layers.count, depth: depth + 1, unresolved: &unresolved)
        }
    }

    private static func matching(
        _ close: Character, in text: Substring, from start: Substring.Index
    ) -> Substring.Index? {
        let open: Character = close == ")" ? "(" : "{"
        var depth = 1
        var index = start
        while index < text.endIndex {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }

    private func hint(for name: String) -> String {
        let missing = layers.flatMap(\.missingOptionalIncludes)
        let levels = layers.map(\.name).reversed().joined(separator: ", ")
        var hint = "not set in \(levels.isEmpty ? "any build setting" : levels)"
        if name == "TeamIdentifierPrefix" || name == "AppIdentifierPrefix"
            || name == "DEVELOPMENT_TEAM"
        {
            hint += "; Xcode takes it from the signing team (DEVELOPMENT_TEAM)"
        }
        if !missing.isEmpty {
            hint += "; perhaps from the missing optional include \(missing.joined(separator: ", "))"
        }
        return hint
    }
}

/// `$(VAR:lower)`, `:upper`, `:rfc1034identifier`, `:identifier`, `:c99extidentifier`,
/// `:default=x`, `:base`, `:file`, `:dir`, `:suffix`, applied left to right.
enum BuildSettingModifiers {
    static func apply(_ modifiers: [String], to value: String) -> String {
        modifiers.reduce(value) { value, modifier in
            switch modifier {
            case "lower": return value.lowercased()
            case "upper": return value.uppercased()
            case "rfc1034identifier":
                return String(
                    value.map {
                        $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-")
                            ? $0 : "-"
                    })
            case "identifier", "c99extidentifier":
                let mapped = String(
                    value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" }
                )
                return mapped.first?.isNumber == true ? "_" + mapped : mapped
            case "base":
                return ((value as NSString).lastPathComponent as NSString).deletingPathExtension
            case "file": return (value as NSString).lastPathComponent
            case "dir": return (value as NSString).deletingLastPathComponent
            case "suffix":
                return (value as NSString).pathExtension.isEmpty
                    ? "" : "." + (value as NSString).pathExtension
            default:
                if modifier.hasPrefix("default="), value.isEmpty {
                    return String(modifier.dropFirst("default=".count))
                }
                return value
            }
        }
    }

    static func defaultValue(_ modifiers: [String]) -> String? {
        modifiers.first { $0.hasPrefix("default=") }.map { String($0.dropFirst("default=".count)) }
    }
}
