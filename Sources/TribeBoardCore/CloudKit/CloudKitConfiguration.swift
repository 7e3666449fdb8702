import Foundation

/// Where and how to reach CloudKit Web Services. Sources, strongest first: command-line flags,
/// `TRIBEBOARD_CK_*` environment variables, a `key = value` config file (see Templates/).
public struct CloudKitConfiguration: Sendable, Equatable {
    public enum Environment: String, Sendable, CaseIterable { case development, production }
    public enum Database: String, Sendable, CaseIterable { case `public`, `private`, shared }

    public static let bundleID = "net.dataenvy.TribeBoard"
    /// The rule the app's crash taught: `iCloud.` + bundle id.
    public static let defaultContainer = "iCloud." + bundleID
    public static let defaultBaseURL = "https://api.apple-cloudkit.com"

    public var container = Self.defaultContainer
    public var environment = Environment.development
    /// The public database by default: a server-to-server key reaches only that one.
    public var database = Database.public
    public var keyID: String?
    public var keyFile: String?
    public var apiToken: String?
    public var webAuthToken: String?
    public var baseURL = Self.defaultBaseURL

    public init() {}

    /// A remote is configured when there are credentials for the chosen database.
    public var isConfigured: Bool {
        switch database {
        case .public: return keyID != nil && keyFile != nil
        case .private, .shared: return apiToken != nil && webAuthToken != nil
        }
    }

    /// `/database/1/{container}/{environment}/{database}/{operation}`: what a signature covers.
    public func subpath(_ operation: String) -> String {
        "/database/1/\(container)/\(environment.rawValue)/\(database.rawValue)/\(operation)"
    }

    public func validate() throws(CloudKitConfigurationError) {
        guard container.hasPrefix("iCloud."), container.count > "iCloud.".count, !container.contains("/") else {
            throw .invalid(setting: "container", value: container, expected: "iCloud. followed by a bundle id, e.g. \(Self.defaultContainer)")
        }
        guard let url = URL(string: baseURL), let scheme = url.scheme, ["https", "http"].contains(scheme), url.host != nil else {
            throw .invalid(setting: "base URL", value: baseURL, expected: "an http(s) URL such as \(Self.defaultBaseURL)")
        }
        if (keyID == nil) != (keyFile == nil) {
            throw .missing(keyID == nil ? "key id (--key-id or TRIBEBOARD_CK_KEY_ID) to go with the key file"
                                        : "key file (--key-file or TRIBEBOARD_CK_KEY_FILE) to go with the key id")
        }
        if database != .public && (apiToken == nil || webAuthToken == nil) {
            throw .missing("API token and web auth token: the \(database.rawValue) database needs a user's tokens; a server-to-server key reaches only the public database")
        }
    }

    /// Settings named on the command line; nil means "not given".
    public struct Overrides: Sendable {
        public var container: String?
        public var environment: String?
        public var database: String?
        public var keyID: String?
        public var keyFile: String?
        public var baseURL: String?
        public var configFile: String?

        public init() {}
    }

    public static func resolve(_ flags: Overrides, environment variables: [String: String]) throws(CloudKitConfigurationError) -> CloudKitConfiguration {
        var settings: [String: String] = [:]
        if let path = flags.configFile ?? variables["TRIBEBOARD_CK_CONFIG"] {
            settings = try ConfigFile.read(path)
        }
        let fromEnvironment: [String: String] = [
            "container": "TRIBEBOARD_CK_CONTAINER", "environment": "TRIBEBOARD_CK_ENVIRONMENT",
            "database": "TRIBEBOARD_CK_DATABASE", "key_id": "TRIBEBOARD_CK_KEY_ID", "key_file": "TRIBEBOARD_CK_KEY_FILE",
            "base_url": "TRIBEBOARD_CK_BASE_URL", "api_token": "TRIBEBOARD_CK_API_TOKEN", "web_auth_token": "TRIBEBOARD_CK_WEB_AUTH_TOKEN",
        ].compactMapValues { variables[$0] }
        settings.merge(fromEnvironment) { _, new in new }
        let fromFlags: [String: String] = [
            "container": flags.container, "environment": flags.environment, "database": flags.database,
            "key_id": flags.keyID, "key_file": flags.keyFile, "base_url": flags.baseURL,
        ].compactMapValues { $0 }
        settings.merge(fromFlags) { _, new in new }
        return try make(from: settings)
    }

    static func make(from settings: [String: String]) throws(CloudKitConfigurationError) -> CloudKitConfiguration {
        var configuration = CloudKitConfiguration()
        if let value = settings["container"] { configuration.container = value }
        if let value = settings["environment"] {
            guard let environment = Environment(rawValue: value) else {
                throw .invalid(setting: "environment", value: value, expected: "development or production")
            }
            configuration.environment = environment
        }
        if let value = settings["database"] {
            guard let database = Database(rawValue: value) else {
                throw .invalid(setting: "database", value: value, expected: "public, private or shared")
            }
            configuration.database = database
        }
        configuration.keyID = settings["key_id"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.keyFile = settings["key_file"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.apiToken = settings["api_token"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.webAuthToken = settings["web_auth_token"].flatMap { $0.isEmpty ? nil : $0 }
        if let value = settings["base_url"] { configuration.baseURL = value }
        try configuration.validate()
        return configuration
    }
}

/// `key = value` lines, `#` comments, optional quotes around values.
enum ConfigFile {
    static let knownKeys: Set<String> = ["container", "environment", "database", "key_id", "key_file", "base_url",
                                         "api_token", "web_auth_token"]

    static func read(_ path: String) throws(CloudKitConfigurationError) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .configFile(path: path, line: 0, reason: FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist")
        }
        var settings: [String: String] = [:]
        for (index, rawLine) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmed
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw .configFile(path: path, line: index + 1, reason: "expected key = value")
            }
            let key = line[..<equals].trimmed
            var value = line[line.index(after: equals)...].trimmed
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard knownKeys.contains(key) else {
                throw .configFile(path: path, line: index + 1, reason: "unknown setting \"\(key)\" (known: \(knownKeys.sorted().joined(separator: ", ")))")
            }
            settings[key] = value
        }
        return settings
    }
}
