import Foundation
import TribeBoardXcodeProject

/// What doctor gathers about one target before judging it: per build (configuration × SDK) the
/// bundle id and the entitlements, and the container references in the target's Swift code.
struct TargetFacts {
    static let containersKey = "com.apple.developer.icloud-container-identifiers"
    static let servicesKey = "com.apple.developer.icloud-services"

    /// One configuration for one SDK.
    struct Build {
        let variant: TargetVariant
        let label: String
        let bundleID: ResolvedSetting?
        let entitlementsSetting: ResolvedSetting?
        /// nil: no CODE_SIGN_ENTITLEMENTS; `.failure`: named but unreadable.
        let entitlements: Result<XMLPlistFile, XcodeProjectError>?
        let entitlementsPath: String?
        let caseDiffers: Bool

        var file: XMLPlistFile? { try? entitlements?.get() }

        /// Containers as Xcode writes them into the signature: every variable expanded.
        var containers: [(written: String, value: ResolvedSetting)] {
            (file?.strings(TargetFacts.containersKey) ?? []).map {
                ($0, variant.settings.expand($0))
            }
        }

        var services: [String] { file?.strings(TargetFacts.servicesKey) ?? [] }
        var hasICloud: Bool { !containers.isEmpty || !services.isEmpty }
        var usesCloudKitService: Bool { services.contains("CloudKit") }

        /// An Info.plist key as this build sets it (`INFOPLIST_KEY_NAME`, or the Info.plist the
        /// target names, its `$(VARIABLE)`s expanded): nil when neither sets it. A dictionary keyed
        /// by containers (`NSUbiquitousContainers`, read as `….keys.first`) gives its keys: one is
        /// the container, several leave which one the code takes to the dictionary's order at run
        /// time.
        func infoPlistValue(_ key: String, project: XcodeProject) -> InfoPlistValue? {
            let settings = variant.settings
            if let setting = settings.resolved("INFOPLIST_KEY_" + key) {
                return .value(setting, written: "INFOPLIST_KEY_" + key)
            }
            guard let plist = settings.resolvedPath("INFOPLIST_FILE"), !plist.value.isEmpty else {
                return nil
            }
            let written = project.path(fromSetting: plist.value)
            guard
                let file = try? XMLPlistFile.read(
                    CaseInsensitivePath.resolve(written)?.path ?? written)
            else { return nil }
            if let raw = file.string(key) { return .value(settings.expand(raw), written: raw) }
            guard let keys = file.dictionaryKeys(key), !keys.isEmpty else { return nil }
            guard keys.count == 1 else {
                return .severalKeys(keys.map { settings.expand($0).value })
            }
            return .value(settings.expand(keys[0]), written: "\(key) > \(keys[0])")
        }
    }

    /// What an Info.plist key holds for a container lookup.
    enum InfoPlistValue {
        case value(ResolvedSetting, written: String)
        /// A dictionary with several keys: the code's `keys.first` is any of them.
        case severalKeys([String])
    }

    let project: XcodeProject
    let target: XcodeTarget
    let builds: [Build]
    let references: [ContainerReference]
    /// The Swift and Objective-C files the target compiles and links (absolute paths).
    let codeFiles: [String]
    let display: (String) -> String

    init(
        project: XcodeProject, target: XcodeTarget, allSwiftFiles: @autoclosure () -> [String],
        linkedFiles: [String] = [],
        sharedFiles: Set<String> = [], display: @escaping (String) -> String,
        scans: SwiftContainerLiterals.ScanCache = SwiftContainerLiterals.ScanCache()
    ) {
        self.project = project
        self.target = target
        self.display = display
        builds = target.variants.map { variant in
            let setting = variant.settings.resolvedPath("CODE_SIGN_ENTITLEMENTS")
            var entitlements: Result<XMLPlistFile, XcodeProjectError>?
            var path: String?
            var caseDiffers = false
            if let setting, !setting.value.isEmpty {
                let written = project.path(fromSetting: setting.value)
                let found = CaseInsensitivePath.resolve(written)
                caseDiffers = found?.caseDiffers ?? false
                path = found?.path ?? written
                entitlements = Result { () throws(XcodeProjectError) in
                    try XMLPlistFile.read(found?.path ?? written)
                }
            }
            return Build(
                variant: variant, label: variant.label(multipleSDKs: target.multipleSDKs),
                bundleID: variant.settings.resolved("PRODUCT_BUNDLE_IDENTIFIER"),
                entitlementsSetting: setting,
                entitlements: entitlements, entitlementsPath: path, caseDiffers: caseDiffers)
        }
        // A trimmed project does not list sources: every Swift file below it counts for its apps.
        let files = target.sourceFiles ?? (target.kind == .app ? allSwiftFiles() : [])
        let linked = Array(Set(target.packageSourceFiles + linkedFiles).subtracting(files)).sorted()
        codeFiles = files + linked
        let found = SwiftContainerLiterals.references(
            in: files + linked, display: display, cache: scans)
        // SwiftData's `.automatic` without a container in the entitlements is a local store that
        // syncs nothing (Apple's template for widgets): no CloudKit use.
        let listsContainer = builds.contains { !$0.containers.isEmpty }
        references = listsContainer ? found : found.filter { !$0.isAutomatic }
        let linkedShown = Set(linked.map(display))
        ownFilesShown = Set(files.filter { !sharedFiles.contains($0) }.map(display))
        ownCodeUsesCloudKit = references.contains { !linkedShown.contains($0.location.path) }
        linkedCodeNamesContainer = references.contains { reference in
            guard linkedShown.contains(reference.location.path) else { return false }
            if case .literal = reference.value { return true }
            if case .bundleIDSuffix = reference.value { return true }
            return false
        }
    }

    /// Files only this target compiles (not shared with another target, not from a package or
    /// framework).
    let ownFilesShown: Set<String>

    /// Code written for this target alone: where it names a container, the target surely needs it.
    /// Code it shares or links may never run here (a widget compiling a diagnostics file).
    func isOwnCode(_ reference: ContainerReference) -> Bool {
        ownFilesShown.contains(reference.location.path)
    }

    /// The target's own files (not its packages' or frameworks') use CloudKit.
    let ownCodeUsesCloudKit: Bool
    /// A package or framework it links names a container outright (`CKContainer(identifier:
    /// "iCloud.…")`).
    let linkedCodeNamesContainer: Bool

    var hasICloud: Bool { builds.contains { $0.hasICloud } }

    /// Containers listed by builds that use CloudKit: an iCloud Documents-only container is no
    /// place for records.
    var cloudKitContainers: [String] {
        builds.filter(\.usesCloudKitService).flatMap {
            $0.containers.filter { $0.value.isResolved }.map(\.value.value)
        }
    }
    var usesCloudKitInCode: Bool { !references.isEmpty }
    /// Targets doctor judges: those with iCloud entitlements or CloudKit code, and apps whose
    /// linked code names a container (a package or framework serves several targets: its CloudKit
    /// code alone does not make an extension a CloudKit target, but the app that runs it needs the
    /// container).
    var isRelevant: Bool {
        hasICloud || ownCodeUsesCloudKit || (target.kind.isApplication && linkedCodeNamesContainer)
    }

    /// CODE_SIGN_ENTITLEMENTS names a file that cannot be read: a build problem whatever the target
    /// does. (Not when the path hangs on a variable doctor cannot resolve: that is a warning where
    /// it is found.)
    var hasUnreadableEntitlements: Bool {
        builds.contains { build in
            guard build.entitlementsSetting?.isResolved != false,
                case .failure? = build.entitlements
            else { return false }
            return true
        }
    }

    func relative(_ path: String) -> String { display(path) }

    /// Where a container is written in an entitlements file.
    func location(of container: String, in file: XMLPlistFile) -> SourceLocation {
        SourceLocation(
            path: display(file.path), line: file.line(ofValue: container, after: Self.containersKey)
        )
    }

    /// `NAME (hint)` for each unresolved variable: never the raw `$(…)` alone.
    static func describe(_ unresolved: [UnresolvedVariable]) -> String {
        Array(Set(unresolved)).sorted { $0.name < $1.name }.map {
            "the variable \($0.name) is \($0.hint)"
        }.joined(separator: "; ")
    }
}
