import Foundation

/// `remote-notification` among the background modes, from the build setting
/// `INFOPLIST_KEY_UIBackgroundModes` (generated Info.plist) or the Info.plist file the target names.
/// Without it SwiftData's CloudKit mirror receives no pushes: sync waits for the next launch.
struct BackgroundModesCheck {
    static let mode = "remote-notification"

    let project: XcodeProject
    let relative: (String) -> String

    func run() -> DoctorCheck {
        var declared: [String] = []
        var missing: [String] = []
        var locations: [SourceLocation] = []
        for configuration in project.configurations {
            if let setting = configuration.backgroundModes, setting.value.split(separator: " ").contains(Substring(Self.mode)) {
                let location = SourceLocation(path: relative(project.pbxprojPath), line: setting.line)
                declared.append("\(configuration.name): INFOPLIST_KEY_UIBackgroundModes (\(location))")
                locations.append(location)
            } else if let plist = infoPlist(configuration), (plist.strings("UIBackgroundModes") ?? []).contains(Self.mode) {
                let location = SourceLocation(path: relative(plist.path), line: plist.line(ofValue: Self.mode, after: "UIBackgroundModes"))
                declared.append("\(configuration.name): UIBackgroundModes (\(location))")
                locations.append(location)
            } else {
                missing.append(configuration.name)
            }
        }
        let checked = "Background mode \(Self.mode) (INFOPLIST_KEY_UIBackgroundModes or Info.plist UIBackgroundModes)"
        guard missing.isEmpty else {
            return DoctorCheck("container.backgroundModes", .container, .warning, checked: checked,
                               found: "not declared in \(missing.joined(separator: ", ")): CloudKit pushes do not wake the app, sync waits for the next launch",
                               action: "tick Remote notifications under Signing & Capabilities > Background Modes",
                               locations: [SourceLocation(path: relative(project.pbxprojPath), line: nil)])
        }
        return DoctorCheck("container.backgroundModes", .container, .ok, checked: checked,
                           found: declared.joined(separator: "; "), locations: locations)
    }

    private func infoPlist(_ configuration: AppBuildConfiguration) -> XMLPlistFile? {
        guard let setting = configuration.infoPlistPath, !setting.value.isEmpty else { return nil }
        return try? XMLPlistFile.read(project.path(fromSetting: setting.value))
    }
}
