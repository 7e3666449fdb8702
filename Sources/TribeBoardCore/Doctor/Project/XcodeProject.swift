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

public enum XcodeProjectError: Error, Equatable, LocalizedError {
    case notFound(path: String)
    case noProjectInFolder(path: String)
    case unreadable(path: String, reason: String)
    case malformed(path: String, line: Int, reason: String)

    public var errorDescription: String? {
        switch self {
        case .notFound(let path): return "\(path) does not exist"
        case .noProjectInFolder(let path): return "\(path) holds no .xcodeproj"
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .malformed(let path, let line, let reason): return "\(path):\(line): not a readable project file: \(reason)"
        }
    }
}

/// The parts of an Xcode project doctor reads: where it is, and the app target's configurations.
public struct XcodeProject: Sendable {
    /// The folder holding the `.xcodeproj`: build setting paths are relative to it.
    public let folder: String
    public let pbxprojPath: String
    public let configurations: [AppBuildConfiguration]

    /// `path` is the folder holding an `.xcodeproj` or the `.xcodeproj` itself.
    public static func load(_ path: String) throws(XcodeProjectError) -> XcodeProject {
        // Absolute, so that locations can be shown relative to the project folder.
        let bundle = URL(fileURLWithPath: try locate(path)).standardizedFileURL.path
        let pbxproj = bundle + "/project.pbxproj"
        guard let data = FileManager.default.contents(atPath: pbxproj) else {
            throw FileManager.default.fileExists(atPath: pbxproj)
                ? .unreadable(path: pbxproj, reason: "permission denied") : .notFound(path: pbxproj)
        }
        let root: OpenStepValue
        do {
            root = try OpenStepPlist.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw .malformed(path: pbxproj, line: error.line, reason: error.reason)
        }
        guard let objects = root["objects"]?.entries else {
            throw .malformed(path: pbxproj, line: root.line, reason: "no objects dictionary")
        }
        let folder = URL(fileURLWithPath: bundle).deletingLastPathComponent().path
        return XcodeProject(folder: folder, pbxprojPath: pbxproj,
                            configurations: PBXObjects(objects).appConfigurations())
    }

    /// A path from a build setting, relative to the project folder as in Xcode.
    public func path(fromSetting value: String) -> String {
        let path = value.hasPrefix("/") ? value : folder + "/" + value
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    static func locate(_ path: String) throws(XcodeProjectError) -> String {
        var isDirectory: ObjCBool = false
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) else { throw .notFound(path: path) }
        if trimmed.hasSuffix(".xcodeproj") { return trimmed }
        guard isDirectory.boolValue else { throw .noProjectInFolder(path: path) }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: trimmed)
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        // Several projects in one folder: the first by name, as `xcodebuild` refuses to guess.
        guard let project = entries.filter({ $0.hasSuffix(".xcodeproj") }).sorted().first else {
            throw .noProjectInFolder(path: path)
        }
        return trimmed + "/" + project
    }
}

/// The pbxproj `objects` table, by id.
struct PBXObjects {
    let byID: [String: OpenStepValue]

    init(_ entries: [OpenStepEntry]) {
        byID = Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The app targets' configurations; without an application target (a trimmed project), every
    /// configuration that names a bundle id.
    func appConfigurations() -> [AppBuildConfiguration] {
        let projectDefaults = byID.values.first { $0["isa"]?.string == "PBXProject" }
            .map { configurations(listID: $0["buildConfigurationList"]?.string, target: nil, defaults: [:]) } ?? []
        let defaultsByName = Dictionary(projectDefaults.map { ($0.name, $0.settings) }, uniquingKeysWith: { first, _ in first })
        let apps = byID.values.filter {
            $0["isa"]?.string == "PBXNativeTarget" && $0["productType"]?.string == "com.apple.product-type.application"
        }.sorted { ($0["name"]?.string ?? "") < ($1["name"]?.string ?? "") }
        let fromTargets = apps.flatMap { target in
            configurations(listID: target["buildConfigurationList"]?.string, target: target["name"]?.string, defaults: defaultsByName)
        }
        if !fromTargets.isEmpty { return fromTargets }
        return byID.keys.sorted().compactMap { id -> AppBuildConfiguration? in
            guard let object = byID[id], object["isa"]?.string == "XCBuildConfiguration" else { return nil }
            let configuration = Self.configuration(object, target: nil, defaults: [:])
            return configuration.settings["PRODUCT_BUNDLE_IDENTIFIER"] == nil ? nil : configuration
        }
    }

    private func configurations(listID: String?, target: String?,
                                defaults: [String: [String: BuildSetting]]) -> [AppBuildConfiguration] {
        guard let listID, let ids = byID[listID]?["buildConfigurations"]?.array else { return [] }
        return ids.compactMap { $0.string.flatMap { byID[$0] } }.map { object in
            Self.configuration(object, target: target, defaults: defaults[object["name"]?.string ?? ""] ?? [:])
        }
    }

    private static func configuration(_ object: OpenStepValue, target: String?,
                                      defaults: [String: BuildSetting]) -> AppBuildConfiguration {
        var settings = defaults
        for entry in object["buildSettings"]?.entries ?? [] {
            // A list setting (`("a", "b")`) reads as Xcode's space-separated form.
            let value = entry.value.string ?? entry.value.array?.compactMap(\.string).joined(separator: " ")
            if let value { settings[entry.key] = BuildSetting(value: value, line: entry.line) }
        }
        return AppBuildConfiguration(name: object["name"]?.string ?? "(unnamed)", target: target, settings: settings)
    }
}
