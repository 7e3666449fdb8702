import Foundation
import TribeBoardSupport

/// Where and how to reach CloudKit Web Services. Sources, strongest first: command-line flags,
/// `TRIBEBOARD_CK_*` environment variables, a `key = value` config file (see Templates/).
package struct CloudKitConfiguration: Sendable, Equatable {
    package enum Environment: String, Sendable, CaseIterable { case development, production }
    /// Only the public database: a server-to-server key reaches nothing else, and a user's private
    /// or shared database (where SwiftData's own mirror lives) needs that user's web auth token,
    /// single-use and rotated by every response, which an unattended operator's tool does not hold.
    package enum Database: String, Sendable, CaseIterable { case `public` }

    package static let bundleID = "net.dataenvy.TribeBoard"
    /// The rule the app's crash taught: `iCloud.` + bundle id.
    package static let defaultContainer = "iCloud." + bundleID
    package static let defaultBaseURL = "https://api.apple-cloudkit.com"

    package var container = Self.defaultContainer
    package var environment = Environment.development
    /// The public database by default: a server-to-server key reaches only that one.
    package var database = Database.public
    package var keyID: String?
    package var keyFile: String?
    /// An app user's tokens instead of a key: requests carry them in the URL and are not signed.
    package var appUser: AppUserCredentials?
    /// Without a trailing slash (`https://host/` and `https://host` are the same service): the
    /// subpath, which the signature covers, starts with its own.
    package var baseURL = Self.defaultBaseURL {
        didSet { baseURL = Self.normalised(baseURL) }
    }

    static func normalised(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/"), !url.hasSuffix("://") { url.removeLast() }
        return url
    }

    /// The base URL as it may be printed: a user and password in it masked.
    package var displayBaseURL: String { URLCredentials.masked(baseURL) }

    package init() {}

    /// A remote is configured when there is a server-to-server key or an app user's tokens.
    package var isConfigured: Bool { (keyID != nil && keyFile != nil) || appUser != nil }

    /// `/database/1/{container}/{environment}/{database}/{operation}`: what a signature covers.
    package func subpath(_ operation: String) -> String {
        "/database/1/\(container)/\(environment.rawValue)/\(database.rawValue)/\(operation)"
    }

    package func validate() throws(CloudKitConfigurationError) {
        guard container.hasPrefix("iCloud."), container.count > "iCloud.".count,
            !container.contains("/")
        else {
            throw .invalid(
                setting: "container", value: container,
                expected: "iCloud. followed by a bundle id, e.g. \(Self.defaultContainer)")
        }
        guard let url = URL(string: baseURL), let scheme = url.scheme,
            ["https", "http"].contains(scheme), url.host != nil
        else {
            throw .invalid(
                setting: "base URL", value: displayBaseURL,
                expected: "an http(s) URL such as \(Self.defaultBaseURL)")
        }
        if (keyID == nil) != (keyFile == nil) {
            throw .missing(
                keyID == nil
                    ? "key id (--key-id or TRIBEBOARD_CK_KEY_ID) to go with the key file"
                    : "key file (--key-file or TRIBEBOARD_CK_KEY_FILE) to go with the key id")
        }
        if let appUser {
            guard keyID == nil, keyFile == nil else {
                throw .invalid(setting: "credentials", value: "a key and an app user's tokens",
                               expected: "one of them: a request is either signed with a key or carries a user's tokens")
            }
            guard !appUser.apiToken.isEmpty, !appUser.webAuthToken.isEmpty else {
                throw .missing(
                    appUser.apiToken.isEmpty
                        ? "API token to go with the web auth token"
                        : "web auth token to go with the API token")
            }
        }
    }

    /// Settings named on the command line; nil means "not given".
    package struct Overrides: Sendable {
        package var container: String?
        package var environment: String?
        package var database: String?
        package var keyID: String?
        package var keyFile: String?
        package var baseURL: String?
        package var configFile: String?

        package init() {}
    }

    package static func resolve(_ flags: Overrides, environment variables: [String: String])
        throws(CloudKitConfigurationError) -> CloudKitConfiguration {
        var settings: [String: String] = [:]
        if let path = flags.configFile ?? variables["TRIBEBOARD_CK_CONFIG"] {
            settings = try ConfigFile.read(path)
            // A relative key_file in a config file is the file's neighbour, not the working
            // directory's (cron runs from $HOME, systemd from /): it is made absolute here.
            if let key = settings["key_file"], !key.isEmpty, !key.hasPrefix("/") {
                settings["key_file"] =
                    URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(
                        key
                    ).standardizedFileURL.path
            }
        }
        let fromEnvironment: [String: String] = [
            "container": "TRIBEBOARD_CK_CONTAINER", "environment": "TRIBEBOARD_CK_ENVIRONMENT",
            "database": "TRIBEBOARD_CK_DATABASE", "key_id": "TRIBEBOARD_CK_KEY_ID",
            "key_file": "TRIBEBOARD_CK_KEY_FILE",
            "base_url": "TRIBEBOARD_CK_BASE_URL"
        ].compactMapValues { variables[$0] }
        settings.merge(fromEnvironment) { _, new in new }
        let fromFlags: [String: String] = [
            "container": flags.container, "environment": flags.environment,
            "database": flags.database,
            "key_id": flags.keyID, "key_file": flags.keyFile, "base_url": flags.baseURL
        ].compactMapValues { $0 }
        settings.merge(fromFlags) { _, new in new }
        return try make(from: settings)
    }

    static func make(from settings: [String: String]) throws(CloudKitConfigurationError)
        -> CloudKitConfiguration
    {
        var configuration = CloudKitConfiguration()
        if let value = settings["container"] { configuration.container = value }
        if let value = settings["environment"] {
            guard let environment = Environment(rawValue: value) else {
                throw .invalid(
                    setting: "environment", value: value, expected: "development or production")
            }
            configuration.environment = environment
        }
        if let value = settings["database"] {
            guard let database = Database(rawValue: value) else {
                throw .invalid(
                    setting: "database", value: value,
                    expected: "public: a server-to-server key reaches only the public database, "
                        + "and users' private databases (where SwiftData's own mirror lives) are out "
                        + "of an operator's reach (docs/cloudkit.md: Where provisioned families live)"
                )
            }
            configuration.database = database
        }
        configuration.keyID = settings["key_id"].flatMap { $0.isEmpty ? nil : $0 }
        // Absolute from here on: the key is named so in advice, which runs from any folder.
        configuration.keyFile = settings["key_file"].flatMap {
            $0.isEmpty ? nil : AbsolutePath.of($0)
        }
        if let value = settings["base_url"] { configuration.baseURL = value }
        try configuration.validate()
        return configuration
    }
}

/// `key = value` lines, `#` comments, optional quotes around values.
package enum ConfigFile {
    static let knownKeys: Set<String> = [
        "container", "environment", "database", "key_id", "key_file", "base_url"
    ]
    /// Settings of the private-database mode, which was removed: said so, not "unknown".
    static let retiredKeys: Set<String> = ["api_token", "web_auth_token"]

    /// A config file is a few lines: anything larger is not one.
    static let maxBytes = 65_536

    package static func read(_ path: String) throws(CloudKitConfigurationError) -> [String: String]
    {
        // Checked before reading: a pipe would block for ever and a device (/dev/zero) never
        // ends; a regular file is read only up to its bound.
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw .configFile(
                    path: path, line: nil,
                    reason: "is not a regular file (a folder, a pipe or a device)")
            }
            guard info.st_size <= maxBytes else {
                throw .configFile(
                    path: path, line: nil,
                    reason: "is \(info.st_size) bytes, more than the "
                        + "\(maxBytes / 1024) KiB a configuration file may hold")
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .configFile(
                path: path, line: nil,
                reason: FileManager.default.fileExists(atPath: path)
                    ? "cannot be read" : "does not exist")
        }
        var settings: [String: String] = [:]
        // Any line ending: a file saved on Windows ends its lines with CRLF, which Swift reads as
        // one Character ("\r\n"), so splitting at "\n" alone would make the whole file one line.
        let lines = String(decoding: data, as: UTF8.self).split(
            omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.trimmed
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw .configFile(path: path, line: index + 1, reason: "expected key = value")
            }
            let key = line[..<equals].trimmed
            var value = line[line.index(after: equals)...].trimmed
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            if retiredKeys.contains(key) {
                throw .configFile(
                    path: path, line: index + 1,
                    reason: "\"\(key)\" belonged to the private database mode, which was removed: "
                        + "the toolkit works on the public database with a server-to-server key (key_id, key_file)"
                )
            }
            guard knownKeys.contains(key) else {
                let known = knownKeys.sorted().joined(separator: ", ")
                throw .configFile(
                    path: path, line: index + 1,
                    reason: "unknown setting \"\(key)\" (known: \(known))")
            }
            settings[key] = value
        }
        return settings
    }
}
