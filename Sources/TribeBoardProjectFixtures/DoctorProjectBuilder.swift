import Foundation
import TribeBoardTestSupport

/// Writes small Xcode projects for doctor's tests: targets of any product type, settings at
/// target and project level (conditions allowed), xcconfig files as base configurations, and
/// Sources build phases, so each rule can be tested on the smallest project that shows it.
package struct DoctorProjectBuilder {
    package struct Target {
        package var name: String
        package var productType: String
        /// Settings for every configuration; `debug` and `release` add to them.
        package var settings: [String: String]
        package var debug: [String: String] = [:]
        package var release: [String: String] = [:]
        /// An xcconfig (relative to the project folder) both configurations are based on.
        package var xcconfig: String?
        /// Swift files (relative to the project folder) in the Sources phase; nil: no phase.
        package var sources: [String]?

        package init(
            _ name: String, _ productType: String = "com.apple.product-type.application",
            settings: [String: String],
            xcconfig: String? = nil, sources: [String]? = nil
        ) {
            self.name = name
            self.productType = productType
            self.settings = settings
            self.xcconfig = xcconfig
            self.sources = sources
        }
    }

    package var targets: [Target]
    package var projectSettings: [String: String] = [:]
    package var projectXCConfig: String?

    package init(targets: [Target]) {
        self.targets = targets
    }

    package static let widget = "com.apple.product-type.app-extension"
    package static let watchApp = "com.apple.product-type.application.watchapp2"

    /// Writes `NAME.xcodeproj/project.pbxproj` into `folder`; returns the folder's path.
    @discardableResult
    package func write(in folder: TemporaryDirectory, name: String = "App") throws -> String {
        try FileManager.default.createDirectory(
            atPath: folder.file("\(name).xcodeproj"), withIntermediateDirectories: true)
        try folder.write("\(name).xcodeproj/project.pbxproj", pbxproj())
        return folder.path
    }

    /// The project file's text: the targets, their build phases and both configurations' settings.
    func pbxproj() -> String {
        var counter = 0
        func id() -> String {
            counter += 1
            return String(format: "B%023d", counter)
        }
        var objects: [String] = []
        var references: [String: String] = [:]
        func reference(_ path: String) -> String {
            if let existing = references[path] { return existing }
            let new = id()
            references[path] = new
            objects.append("\(new) = {isa = PBXFileReference; path = \(Self.quote(path)); sourceTree = SOURCE_ROOT; };")
            return new
        }
        func configurationList(_ base: [String: String], debug: [String: String], release: [String: String], xcconfig: String?) -> String {
            let ids = [("Debug", base.merging(debug) { $1 }), ("Release", base.merging(release) { $1 })].map { name, settings in
                let configuration = id()
                let baseReference = xcconfig.map { "baseConfigurationReference = \(reference($0)); " } ?? ""
                let body = settings.sorted { $0.key < $1.key }
                    .map { "\(Self.quote($0.key)) = \(Self.quote($0.value));" }.joined(separator: "\n\t\t\t\t")
                objects.append("\(configuration) = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\t\(baseReference)"
                    + "buildSettings = {\n\t\t\t\t\(body)\n\t\t\t};\n\t\t\tname = \(name);\n\t\t};")
                return configuration
            }
            let list = id()
            objects.append("\(list) = {isa = XCConfigurationList; buildConfigurations = (\(ids.map { $0 + ", " }.joined())); };")
            return list
        }
        var targetIDs: [String] = []
        for target in targets {
            let list = configurationList(target.settings, debug: target.debug, release: target.release, xcconfig: target.xcconfig)
            var phases = ""
            if let sources = target.sources {
                let files = sources.map { path -> String in
                    let buildFile = id()
                    objects.append("\(buildFile) = {isa = PBXBuildFile; fileRef = \(reference(path)); };")
                    return buildFile
                }
                let phase = id()
                objects.append("\(phase) = {isa = PBXSourcesBuildPhase; files = (\(files.map { $0 + ", " }.joined())); };")
                phases = phase
            }
            let targetID = id()
            targetIDs.append(targetID)
            objects.append("""
                \(targetID) = {isa = PBXNativeTarget; buildConfigurationList = \(list); \
                buildPhases = (\(phases)); name = \(Self.quote(target.name)); \
                productType = \(Self.quote(target.productType)); };
                """)
        }
        let projectList = configurationList(
            projectSettings, debug: [:], release: [:], xcconfig: projectXCConfig)
        let targetList = targetIDs.map { $0 + ", " }.joined()
        objects.append("P00000000000000000000001 = {isa = PBXProject; buildConfigurationList = \(projectList); "
            + "targets = (\(targetList)); };")
        return "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjectVersion = 56;\n\tobjects = {\n\t\t"
            + objects.joined(separator: "\n\t\t")
            + "\n\t};\n\trootObject = P00000000000000000000001;\n}\n"
    }

    static func quote(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\"") + "\""
    }

    /// An entitlements file listing `containers` (CloudKit among the services unless `services` says otherwise).
    package static func entitlements(
        containers: [String], services: [String] = ["CloudKit"], extra: [String: String] = [:]
    ) -> String {
        let strings = { (values: [String]) in
            values.map { "\t\t<string>\($0)</string>" }.joined(separator: "\n")
        }
        let more = extra.sorted { $0.key < $1.key }.map {
            "\t<key>\($0.key)</key>\n\t<string>\($0.value)</string>"
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(more)
            \t<key>com.apple.developer.icloud-container-identifiers</key>
            \t<array>
            \(strings(containers))
            \t</array>
            \t<key>com.apple.developer.icloud-services</key>
            \t<array>
            \(strings(services))
            \t</array>
            </dict>
            </plist>

            """
    }
}
