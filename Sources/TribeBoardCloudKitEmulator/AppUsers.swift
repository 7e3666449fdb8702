import Foundation

/// App users reaching the public database through Web Services' user authentication: the URL
/// carries `ckAPIToken` (the container's API token) and `ckWebAuthToken` (the signed-in user's),
/// and no signature. Each known web auth token is one iCloud user (`--user NAME=TOKEN`), in
/// every container. Tokens do not rotate here (Apple's rotate with each response of the private
/// and shared databases; the public database is what the emulator serves).
struct AppUsers {
    static let apiTokenParameter = "ckAPIToken"
    static let webAuthTokenParameter = "ckWebAuthToken"

    /// Web auth token to the user record name it signs in.
    private(set) var byToken: [String: String] = [:]

    mutating func register(userRecordName: String, webAuthToken: String) {
        byToken[webAuthToken] = userRecordName
    }

    /// The app user a request's query string names; nil when it carries neither token (the
    /// request must then be signed with a key). A token the emulator does not know is
    /// AUTHENTICATION_REQUIRED, as Apple answers a user who is not signed in.
    func caller(rawQuery: String) throws(Refusal) -> String? {
        guard let parameters = QueryString.parameters(rawQuery) else {
            throw Refusal(.badRequest, "the query string is not valid percent-encoding")
        }
        let apiToken = parameters[Self.apiTokenParameter],
            webAuthToken = parameters[Self.webAuthTokenParameter]
        guard apiToken != nil || webAuthToken != nil else { return nil }
        guard apiToken?.isEmpty == false else {
            throw Refusal(.authenticationFailed, "ckWebAuthToken without a ckAPIToken")
        }
        guard let webAuthToken, let user = byToken[webAuthToken] else {
            throw Refusal(
                .authenticationRequired,
                "request needs authorization: no signed-in user has this ckWebAuthToken")
        }
        return user
    }
}

/// `a=1&b=2`, decoded as a web server reads a query: `+` is a space and `%XX` a byte, so a token
/// holding `+`, `/` or `=` arrives whole only when the client encoded them (`%2B %2F %3D`).
enum QueryString {
    /// nil when a part is not valid percent-encoding.
    static func parameters(_ raw: String) -> [String: String]? {
        var parameters: [String: String] = [:]
        for part in raw.split(separator: "&") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(pair[0]), let value = decode(pair.count > 1 ? pair[1] : "")
            else { return nil }
            parameters[name] = value
        }
        return parameters
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
