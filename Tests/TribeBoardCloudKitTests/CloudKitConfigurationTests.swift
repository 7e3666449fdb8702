import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCloudKit

/// Settings from flags, environment and file, strongest first; the private-database mode is gone,
/// and whoever still asks for it is told why rather than sent to a half-working path.
struct CloudKitConfigurationTests {
    @Test func flagsBeatTheEnvironmentWhichBeatsTheFile() throws {
        let folder = try TemporaryDirectory("ck-config")
        let file = try folder.write("ck.conf", "container = iCloud.from.file\nenvironment = production\nkey_id = file-key\nkey_file = /k.pem\n")
        var flags = CloudKitConfiguration.Overrides()
        flags.configFile = file
        flags.keyID = "flag-key"
        let resolved = try CloudKitConfiguration.resolve(flags, environment: ["TRIBEBOARD_CK_CONTAINER": "iCloud.from.env"])
        #expect(resolved.container == "iCloud.from.env")
        #expect(resolved.environment == .production)
        #expect(resolved.keyID == "flag-key" && resolved.keyFile == "/k.pem")
        #expect(resolved.database == .public && resolved.isConfigured)
    }

    /// Under cron the working directory is $HOME, under systemd /: a key file named beside the
    /// config file must be found there, whatever directory the run starts in.
    @Test func aRelativeKeyFileInAConfigFileIsTheConfigFilesNeighbour() throws {
        let folder = try TemporaryDirectory("ck-config-relative")
        let file = try folder.write("ck.conf", "key_id = k\nkey_file = keys/eckey.pem\n")
        var flags = CloudKitConfiguration.Overrides()
        flags.configFile = file
        let resolved = try CloudKitConfiguration.resolve(flags, environment: [:])
        #expect(resolved.keyFile == URL(fileURLWithPath: folder.path).appendingPathComponent("keys/eckey.pem").standardizedFileURL.path)
        // A relative --key-file flag is where the command runs, as a path typed in a shell is:
        // made absolute, so that advice naming it runs from any folder.
        flags.keyFile = "other.pem"
        #expect(try CloudKitConfiguration.resolve(flags, environment: [:]).keyFile
                == FileManager.default.currentDirectoryPath + "/other.pem")
    }

    @Test(arguments: ["private", "shared"]) func aUserDatabaseIsRefusedWithTheReason(database: String) {
        var flags = CloudKitConfiguration.Overrides()
        flags.database = database
        #expect(throws: CloudKitConfigurationError.self) { try CloudKitConfiguration.resolve(flags, environment: [:]) }
        do {
            _ = try CloudKitConfiguration.resolve(CloudKitConfiguration.Overrides(), environment: ["TRIBEBOARD_CK_DATABASE": database])
            Issue.record("\(database) accepted from the environment")
        } catch .invalid(let setting, let value, let expected) {
            #expect(setting == "database" && value == database)
            #expect(expected.contains("server-to-server key reaches only the public database"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theRemovedTokenSettingsAreNamedInTheConfigFile() throws {
        let folder = try TemporaryDirectory("ck-config")
        let file = try folder.write("ck.conf", "# tokens from an old setup\nweb_auth_token = 123+abc/=\n")
        var flags = CloudKitConfiguration.Overrides()
        flags.configFile = file
        #expect(throws: CloudKitConfigurationError.configFile(path: file, line: 2, reason:
            "\"web_auth_token\" belonged to the private database mode, which was removed: the toolkit works on the public database with a server-to-server key (key_id, key_file)")) {
            try CloudKitConfiguration.resolve(flags, environment: [:])
        }
    }

    /// A file saved on Windows: each CRLF line is a line, so `environment = production` counts.
    @Test func aConfigFileWithCRLFLineEndingsIsReadLineByLine() throws {
        let folder = try TemporaryDirectory("ck-config")
        let file = try folder.write("ck.conf", "# saved on Windows\r\nenvironment = production\r\nkey_id = k1\r\nkey_file = /k.pem\r\n")
        var flags = CloudKitConfiguration.Overrides()
        flags.configFile = file
        let resolved = try CloudKitConfiguration.resolve(flags, environment: [:])
        #expect(resolved.environment == .production && resolved.keyID == "k1" && resolved.keyFile == "/k.pem")
    }

    @Test func aTrailingSlashIsDroppedFromTheBaseURL() throws {
        var flags = CloudKitConfiguration.Overrides()
        flags.baseURL = "http://127.0.0.1:8787//"
        #expect(try CloudKitConfiguration.resolve(flags, environment: [:]).baseURL == "http://127.0.0.1:8787")
    }

    /// A password in the base URL is never printed: not in what a refused URL's message says, not
    /// in the URL shown by reports.
    @Test func credentialsInTheBaseURLAreMaskedWhereverItIsShown() throws {
        var flags = CloudKitConfiguration.Overrides()
        flags.baseURL = "ftp://ops:s3cret@proxy.example"
        do {
            _ = try CloudKitConfiguration.resolve(flags, environment: [:])
            Issue.record("an ftp URL was accepted")
        } catch {
            #expect(!error.localizedDescription.contains("s3cret") && !"\(error)".contains("s3cret"), "\(error)")
            #expect(error.localizedDescription.contains("ftp://***@proxy.example"), "\(error.localizedDescription)")
        }
        flags.baseURL = "https://ops:s3cret@proxy.example:8443/ck"
        let configuration = try CloudKitConfiguration.resolve(flags, environment: [:])
        #expect(configuration.displayBaseURL == "https://***@proxy.example:8443/ck")
        #expect(URLCredentials.masked("https://api.apple-cloudkit.com") == "https://api.apple-cloudkit.com")
        #expect(URLCredentials.masked("http://host/path@x") == "http://host/path@x", "an @ after the host is not a credential")
    }

    /// Bounded reads: a config path that is a device, a pipe or a huge file is refused
    /// at once, naming why, instead of reading for ever.
    @Test func aConfigFileThatIsNotASmallRegularFileIsRefused() throws {
        let folder = try TemporaryDirectory("ck-config")
        let fifo = folder.file("fifo.conf")
        try #require(mkfifo(fifo, 0o600) == 0)
        let large = try folder.write("large.conf", String(repeating: "# comment\n", count: 10_000))
        for (path, words) in [("/dev/zero", "not a regular file"), (fifo, "not a regular file"), (large, "more than the 64 KiB")] {
            var flags = CloudKitConfiguration.Overrides()
            flags.configFile = path
            do {
                _ = try CloudKitConfiguration.resolve(flags, environment: [:])
                Issue.record("\(path) was read as a config file")
            } catch {
                #expect(error.localizedDescription.contains(words), "\(path): \(error.localizedDescription)")
            }
        }
    }
}
