import Foundation

struct AppConfiguration {
    static let shared = AppConfiguration(bundle: .main)

    let bundleIdentifier: String
    let keychainService: String
    let backgroundRefreshTaskIdentifier: String
    let backgroundProcessingTaskIdentifier: String
    let cloudKitEnabled: Bool
    let cloudKitContainerIdentifier: String?
    let mobileOAuthClientId: String
    let mobileOAuthClientName: String
    let mobileOAuthRedirectURI: URL
    let mobileDefaultServerURL: URL?

    init(bundle: Bundle) {
        let bundleIdentifier = bundle.bundleIdentifier ?? "com.example.nebularnews.ios"
        self.bundleIdentifier = bundleIdentifier
        self.keychainService = bundle.stringValue(forInfoDictionaryKey: "KeychainService") ?? bundleIdentifier
        self.backgroundRefreshTaskIdentifier =
            bundle.stringValue(forInfoDictionaryKey: "BackgroundRefreshTaskIdentifier")
            ?? "\(bundleIdentifier).feedRefresh"
        self.backgroundProcessingTaskIdentifier =
            bundle.stringValue(forInfoDictionaryKey: "BackgroundProcessingTaskIdentifier")
            ?? "\(bundleIdentifier).articleProcessing"
        self.cloudKitEnabled = bundle.boolValue(forInfoDictionaryKey: "CloudKitEnabled")
        self.cloudKitContainerIdentifier = bundle.stringValue(forInfoDictionaryKey: "CloudKitContainerIdentifier")
        self.mobileOAuthClientId = bundle.stringValue(forInfoDictionaryKey: "MobileOAuthClientId") ?? "nebular-news-ios"
        self.mobileOAuthClientName = bundle.stringValue(forInfoDictionaryKey: "MobileOAuthClientName") ?? "Nebular News iOS"






































