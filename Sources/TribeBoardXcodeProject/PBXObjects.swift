import Foundation

/// The pbxproj `objects` table, by id, and what doctor reads from it: targets with their
/// configurations (and the xcconfig each is based on), and the files each target compiles.
struct PBXObjects {
    let byID: [String: OpenStepValue]
    let folder: String
    let display: (String) -> String

    init(_ entries: [OpenStepEntry], folder: String, display: @escaping (String) -> String) {
        byID = Dictionary(
            entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        // `projectDirPath` moves SRCROOT (rare, but generated projects use it).
        let directory =
            byID.values.first { $0["isa"]?.string == "PBXProject" }?["projectDirPath"]?.string ?? ""
        self.folder = FilePaths.join(folder, directory)
        self.display = display
    }

    struct ConfigurationLayers {
        let name: String
        let xcconfig: BuildSettingLayer?
        let settings: BuildSettingLayer
        let problems: [String]
    }

    func project() -> OpenStepValue? { byID.values.first { $0["isa"]?.string == "PBXProject" } }

    func targets(projectName: String, pbxprojPath: String, paths: FilePaths) -> [XcodeTarget] {
        let projectLayers = configurations(
            listID: project()?["buildConfigurationList"]?.string, owner: "the project",
            pbxprojPath: pbxprojPath,
            paths: paths)
        let natives = byID.filter { $0.value["isa"]?.string == "PBXNativeTarget" }
            .sorted { ($0.value["name"]?.string ?? "") < ($1.value["name"]?.string ?? "") }
        return natives.map { targetID, target in
            let name = target["name"]?.string ?? "(unnamed)"
            let productType = target["productType"]?.string ?? ""
            var problems: [String] = projectLayers.flatMap(\.problems)
            var variants: [TargetVariant] = []
            for layers in configurations(
                listID: target["buildConfigurationList"]?.string, owner: "target \(name)",
                pbxprojPath: pbxprojPath,
                paths: paths)
            {
                problems += layers.problems
                let projectLevel = projectLayers.first { $0.name == layers.name }
                let stack = [
                    projectLevel?.xcconfig, projectLevel?.settings, layers.xcconfig, layers.settings
                ].compactMap { $0 }
                let builtins = [
                    "TARGET_NAME": name, "PROJECT_NAME": projectName, "SRCROOT": folder,
                    "PROJECT_DIR": folder,
                    "SOURCE_ROOT": folder,
                    "PROJECT_FILE_PATH": (pbxprojPath as NSString).deletingLastPathComponent
                ]
                let probe = BuildSettings(
                    context: BuildContext(configuration: layers.name, sdk: "iphoneos"),
                    layers: stack, builtins: builtins)
                for (sdk, catalyst) in XcodeTarget.sdks(probe) {
                    variants.append(
                        TargetVariant(
                            settings: BuildSettings(
                                context: BuildContext(configuration: layers.name, sdk: sdk),
                                layers: stack, builtins: builtins), catalyst: catalyst))
                }
            }
            return XcodeTarget(
                name: name, kind: TargetKind(productType: productType), productType: productType,
                variants: variants,
                sourceFiles: paths.swiftSources(of: target, id: targetID),
                packageSourceFiles: paths.localPackageSources(of: target)
                    + CocoaPodsPathPods.sources(forTarget: name, projectFolder: folder),
                problems: Array(Set(problems)).sorted(),
                productFile: productFile(of: target), linkedProducts: linkedProducts(of: target))
        }
    }

    private func configurations(
        listID: String?, owner: String, pbxprojPath: String, paths: FilePaths
    ) -> [ConfigurationLayers] {
        guard let listID, let ids = byID[listID]?["buildConfigurations"]?.array else { return [] }
        return ids.compactMap { $0.string.flatMap { byID[$0] } }.map { object in
            let name = object["name"]?.string ?? "(unnamed)"
            var assignments: [BuildSettingAssignment] = []
            for entry in object["buildSettings"]?.entries ?? [] {
                // A list setting (`("a", "b")`) reads as Xcode's space-separated form.
                guard
                    let value = entry.value.string
                        ?? entry.value.array?.compactMap(\.string).joined(separator: " ")
                else { continue }
                assignments.append(
                    .parse(
                        key: entry.key, value: value,
                        location: SourceLocation(path: display(pbxprojPath), line: entry.line)))
            }
            var xcconfig: BuildSettingLayer?
            var problems: [String] = []
            // objectVersion 77 names an xcconfig inside a synchronized folder by anchor and
            // relative path.
            let anchored = object["baseConfigurationReferenceAnchor"]?.string.flatMap {
                paths.path(of: $0)
            }
            .flatMap { anchor in
                object["baseConfigurationReferenceRelativePath"]?.string.map {
                    FilePaths.join(anchor, $0)
                }
            }
            if let path = anchored
                ?? object["baseConfigurationReference"]?.string.flatMap({ paths.path(of: $0) })
            {
                let contents = XCConfigFile.read(
                    CaseInsensitivePath.resolve(path)?.path ?? path, display: display)
                let missing = contents.files.isEmpty ? ", missing" : ""
                xcconfig = BuildSettingLayer(
                    name: "\(display(path)) (\(owner)'s xcconfig\(missing))",
                    assignments: contents.assignments,
                    missingOptionalIncludes: contents.missingOptionalIncludes)
                problems = contents.problems.map(\.message)
                if CaseInsensitivePath.resolve(path)?.caseDiffers == true {
                    problems.append("\(display(path)) is found only ignoring case: a case-sensitive volume would not find it")
                }
            }
            return ConfigurationLayers(
                name: name, xcconfig: xcconfig,
                settings: BuildSettingLayer(
                    name: "\(owner)'s build settings (\(name))", assignments: assignments),
                problems: problems)
        }
    }
}
