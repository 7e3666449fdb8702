import Foundation

/// An app user's way into the public database (Web Services' user authentication): the
/// container's API token and the signed-in user's web auth token, sent in the query string
/// instead of a server-to-server signature. Both are secrets: every description masks them.
package struct AppUserCredentials: Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible,
    CustomReflectable
{
    package var apiToken: String
    package var webAuthToken: String

    package init(apiToken: String, webAuthToken: String) {
        self.apiToken = apiToken
        self.webAuthToken = webAuthToken
    }

    package var description: String { "AppUserCredentials(apiToken: ***, webAuthToken: ***)" }
    package var debugDescription: String { description }
    package var customMirror: Mirror {
        Mirror(self, children: ["apiToken": "***", "webAuthToken": "***"])
    }

    /// `ckAPIToken=…&ckWebAuthToken=…`, each token percent-encoded so that `+`, `/` and `=` arrive
    /// whole (`%2B`, `%2F`, `%3D`): a server reads a bare `+` as a space.
    package var queryString: String {
        "ckAPIToken=\(Self.encoded(apiToken))&ckWebAuthToken=\(Self.encoded(webAuthToken))"
    }

    /// Only RFC 3986's unreserved characters go as they are.
    static func encoded(_ token: String) -> String {
        var allowed = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return token.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// `text` with every form of either token (as given and as sent) replaced by `***`: a message
    /// from the network layer or a server may quote the URL.
    package func masking(_ text: String) -> String {
        var masked = text
        for token in [apiToken, webAuthToken] where !token.isEmpty {
            for form in [Self.encoded(token), token] {
                masked = masked.replacingOccurrences(of: form, with: "***")
            }
        }
        return masked
    }
}
