import Foundation

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
