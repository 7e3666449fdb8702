import Foundation

/// The kinds of target that carry their own entitlements and can talk to CloudKit.
package enum TargetKind: String, Sendable, Codable, CaseIterable {
    case app, appExtension, watchApp, watchExtension, appClip, other
    /// The iOS app that only carries a watch-only app (`watchapp2-container`): no code of its own.
    case watchOnlyStub

    init(productType: String) {
        switch productType {
        case "com.apple.product-type.application", "com.apple.product-type.application.messages":
            self = .app
        case "com.apple.product-type.application.watchapp",
            "com.apple.product-type.application.watchapp2":
            self = .watchApp
        case "com.apple.product-type.application.watchapp2-container": self = .watchOnlyStub
        case "com.apple.product-type.watchkit-extension",
            "com.apple.product-type.watchkit2-extension":
            self = .watchExtension
        case "com.apple.product-type.application.on-demand-install-capable": self = .appClip
        default:
            self = productType.hasPrefix("com.apple.product-type.app-extension")
                || productType.hasPrefix("com.apple.product-type.extensionkit-extension")
                || productType == "com.apple.product-type.tv-app-extension" ? .appExtension : .other
        }
    }

    package var title: String {
        switch self {
        case .app: return "app"
        case .appExtension: return "app extension"
        case .watchApp: return "watch app"
        case .watchExtension: return "WatchKit extension"
        case .appClip: return "App Clip"
        case .watchOnlyStub: return "iOS stub of a watch-only app"
        case .other: return "target"
        }
    }

    /// Apps (of any kind) receive pushes and declare background modes; extensions do not.
    package var isApplication: Bool { self == .app || self == .watchApp || self == .appClip }
}

/// One build of a target: a configuration for one SDK, with its settings.
package struct TargetVariant: Sendable {
    package let settings: BuildSettings
    /// A Mac Catalyst build: the macosx SDK, but iOS entitlement keys (Xcode maps them).
    package var catalyst = false
    package var context: BuildContext { settings.context }

    /// `Debug`, or `Debug (macosx)` when the target builds for several SDKs.
    package func label(multipleSDKs: Bool) -> String {
        multipleSDKs
            ? "\(context.configuration) (\(catalyst ? "Mac Catalyst" : context.sdk))"
            : context.configuration
    }
}

/// A native target as doctor sees it: its kind, each configuration for each SDK it builds for,
/// and the Swift files it compiles (nil when the project does not say: a trimmed project).
package struct XcodeTarget: Sendable {
    package let name: String
    package let kind: TargetKind
    package let productType: String
    package let variants: [TargetVariant]
    package let sourceFiles: [String]?
    /// Swift files of the local packages it links: judged with the target, but they alone do not
    /// make a target without iCloud a CloudKit target (a package serves several targets).
    package let packageSourceFiles: [String]
    /// Problems met reading the target's xcconfig files.
    package let problems: [String]
    /// `App.app`, `Sync.framework`: the product's file name, which other targets link by.
    package var productFile: String?
    /// Products it links or embeds, and `target:NAME` for the targets it depends on.
    package var linkedProducts: [String] = []

    /// Frameworks and libraries: their code runs inside the targets that link them.
    package var providesCode: Bool {
        productType.hasPrefix("com.apple.product-type.framework")
            || productType.hasPrefix("com.apple.product-type.library")
    }

    package var sdks: [String] { Array(Set(variants.map(\.context.sdk))).sorted() }
    package var multipleSDKs: Bool { sdks.count > 1 }

    /// The SDKs a target builds for, from `SDKROOT`, `SUPPORTED_PLATFORMS` and Mac Catalyst.
    static func sdks(_ settings: BuildSettings) -> [(sdk: String, catalyst: Bool)] {
        let supported = (settings.resolved("SUPPORTED_PLATFORMS")?.value ?? "").split(
            separator: " "
        ).map(String.init)
            .filter { !$0.hasSuffix("simulator") && !$0.isEmpty }
        let root = settings.resolved("SDKROOT")?.value.lowercased() ?? ""
        // `auto` (multiplatform targets) means "the platforms SUPPORTED_PLATFORMS lists": never an
        // SDK name itself.
        let named = root == "auto" ? "" : root
        var sdks =
            supported.isEmpty || (!named.isEmpty && supported.count == 1)
            ? [Self.sdkName(named)] : supported
        sdks = sdks.map { $0.isEmpty ? "iphoneos" : $0 }
        let catalyst =
            settings.resolved("SUPPORTS_MACCATALYST")?.value.uppercased() == "YES"
            && !sdks.contains("macosx")
        return sdks.map { ($0, false) } + (catalyst ? [("macosx", true)] : [])
    }

    /// `iphoneos17.0` or `macosx` as written; the default is iOS, as for a new project.
    private static func sdkName(_ root: String) -> String {
        for name in ["iphoneos", "macosx", "watchos", "appletvos", "xros"]
        where root.hasPrefix(name) { return name }
        return root.isEmpty ? "iphoneos" : root
    }
}
