import Foundation

/// What the command line reads from files: keys, schemas and seed records, each checked with a
/// message naming the file and what is wrong.
public enum EmulatorSetup {
    /// A key as the Dashboard registers it: its id, the public half, and its container (nil: any).
    public struct Key: Sendable, Equatable {
        public var id: String
        public var publicKeyPEM: [UInt8]
        public var container: String?
    }

    /// `--key KEY_ID=PUBLIC.pem`: valid in every container.
    public static func key(_ text: String) throws(EmulatorError) -> Key {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw .badOption("--key takes KEY_ID=PUBLIC_KEY.pem, got \(text)")
        }
        return Key(id: parts[0], publicKeyPEM: try pem(parts[1], option: "--key"), container: nil)
    }

    /// `--container CONTAINER=KEY_ID:PUBLIC.pem[,KEY_ID:PUBLIC.pem...]`: keys of that container
    /// only.
    public static func containerKeys(_ text: String) throws(EmulatorError) -> [Key] {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].hasPrefix("iCloud."), parts[0].count > 7 else {
            throw .badOption("--container takes iCloud.CONTAINER=KEY_ID:PUBLIC_KEY.pem[,KEY_ID:PUBLIC_KEY.pem], got \(text)")
        }
        var keys: [Key] = []
        for item in parts[1].split(separator: ",") {
            let pair = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard pair.count == 2, !pair[0].isEmpty else {
                throw .badOption(
                    "--container \(parts[0]): each key is KEY_ID:PUBLIC_KEY.pem, got \(item)")
            }
            keys.append(
                Key(
                    id: pair[0], publicKeyPEM: try pem(pair[1], option: "--container"),
                    container: parts[0]))
        }
        guard !keys.isEmpty else { throw .badOption("--container \(parts[0]) names no key") }
        return keys
    }

    /// An iCloud user signed in to the app: the user record name and its web auth token.
    public struct User: Sendable, Equatable {
        public var userRecordName: String
        public var webAuthToken: String
    }

    /// `--user NAME=WEBAUTHTOKEN`: the token may hold `=` (it is cut at the first one).
    public static func user(_ text: String) throws(EmulatorError) -> User {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw .badOption("--user takes USER_RECORD_NAME=WEB_AUTH_TOKEN (such as _app_user_1=token), got a value without both")
        }
        return User(userRecordName: parts[0], webAuthToken: parts[1])
    }

    private static func pem(_ path: String, option: String) throws(EmulatorError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .badOption("\(option): cannot read \(path)")
        }
        guard String(decoding: data, as: UTF8.self).contains("-----BEGIN PUBLIC KEY-----") else {
            throw .badOption("\(option): \(path) is not a PEM public key (make one with `openssl ec -in eckey.pem -pubout`)")
        }
        return Array(data)
    }

    /// `--schema FILE` and `--production-schema FILE`: a `.ckdb` file, or `empty` for none at all.
    public static func schema(_ argument: String) throws(EmulatorError) -> ContainerSchema {
        guard argument != "empty" else { return .empty }
        guard let data = FileManager.default.contents(atPath: argument) else {
            throw .cannotLoad(path: argument, reason: "cannot read it")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .badSchema(path: argument, reason: "not UTF-8 text")
        }
        do { return try SchemaParser.parse(text) } catch {
            throw .badSchema(path: argument, reason: error.description)
        }
    }

    /// A seed file: `{"container": "iCloud...", "environment": "development", "records": [record
    /// dictionaries]}`; a record whose `created.userRecordName` is an app user's was made by that
    /// user.
    public struct Seed: Decodable, Sendable {
        public var container: String
        public var environment: String?
        public var records: [WireRecord]
    }

    public static func seed(_ path: String) throws(EmulatorError) -> Seed {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .cannotLoad(path: path, reason: "cannot read it")
        }
        let seed: Seed
        do { seed = try JSONDecoder().decode(Seed.self, from: data) } catch {
            throw .cannotLoad(path: path, reason: "not a seed file ({\"container\", \"environment\", \"records\": [...]}): \(error)")
        }
        guard ["development", "production"].contains(seed.environment ?? "development") else {
            throw .cannotLoad(
                path: path,
                reason: "environment is development or production, not \(seed.environment ?? "")")
        }
        return seed
    }
}
