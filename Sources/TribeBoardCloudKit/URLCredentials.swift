import Foundation

/// A base URL may carry a user and password (`http://user:secret@proxy`): every URL the toolkit
/// prints (doctor, reports, error messages) shows them masked.
package enum URLCredentials {
    /// `http://user:secret@host/p` as `http://***@host/p`; a URL without credentials unchanged.
    /// Text that does not parse as a URL is masked from the scheme's `//` to the last `@`.
    package static func masked(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "//") else { return url }
        let authorityEnd =
            url[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        guard let at = url[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@") else {
            return url
        }
        return String(url[..<schemeEnd.upperBound]) + "***" + String(url[at...])
    }
}
