import Foundation

/// A build setting's value and the pbxproj line it is written on.
public struct BuildSetting: Sendable, Equatable {
    public let value: String
    public let line: Int
}

/// One build configuration (Debug, Release, ...) of the app target, target settings over project ones.
public struct AppBuildConfiguration: Sendable, Equatable {
    public let name: String
    public let target: String?
    public let settings: [String: BuildSetting]

    public var bundleID: BuildSetting? { resolved("PRODUCT_BUNDLE_IDENTIFIER") }
    public var entitlementsPath: BuildSetting? { resolved("CODE_SIGN_ENTITLEMENTS") }
    public var infoPlistPath: BuildSetting? { resolved("INFOPLIST_FILE") }
    public var backgroundModes: BuildSetting? { resolved("INFOPLIST_KEY_UIBackgroundModes") }

    /// `$(VAR)`, `${VAR}` and `$(VAR:modifier)` replaced from the same settings, as Xcode would
    /// for the simple cases; paths rooted at the project folder lose that root.
    public func resolved(_ key: String) -> BuildSetting? {
        guard let setting = settings[key] else { return nil }
        return BuildSetting(value: expand(setting.value, depth: 0), line: setting.line)
    }

    private func expand(_ text: String, depth: Int) -> String {
        guard depth < 8, text.contains("$") else { return text }
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            guard afterDollar < rest.endIndex, let close = Self.closing(rest[afterDollar]),
                  let end = rest[afterDollar...].firstIndex(of: close) else {
                output += rest[dollar...]
                return output
            }
            let inside = rest[rest.index(after: afterDollar)..<end]
            let name = String(inside.split(separator: ":", maxSplits: 1).first ?? "")
            output += variable(name).map { expand($0, depth: depth + 1) } ?? String(rest[dollar...end])
            rest = rest[rest.index(after: end)...]
        }
        return output + rest
    }

    private static func closing(_ opening: Character) -> Character? {
        opening == "(" ? ")" : opening == "{" ? "}" : nil
    }

    private func variable(_ name: String) -> String? {
        switch name {
        // Paths in build settings are relative to the project folder already.
        case "SRCROOT", "PROJECT_DIR", "SOURCE_ROOT": return "."
        case "TARGET_NAME": return target
        case "PRODUCT_NAME": return settings["PRODUCT_NAME"]?.value ?? target
        default: return settings[name]?.value
        }
    }
}
