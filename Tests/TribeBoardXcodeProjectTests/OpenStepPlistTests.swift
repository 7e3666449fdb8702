import Foundation
import Testing
@testable import TribeBoardXcodeProject

/// project.pbxproj as Xcode writes it (OpenStep plist): values, and the line each came from.
@Suite("Xcode projects: the OpenStep plist")
struct OpenStepPlistTests {
    @Test func theTokenizerKeepsLinesAcrossCommentsAndQuotedStrings() throws {
        let root = try OpenStepPlist.parse("""
            // !$*UTF8*$!
            {
            \t/* a comment
            \t   over two lines */
            \tname = "Tribe \\"Board\\"";
            \tlist = (a, "b c", <0fbd77>,);
            \tnested = { PRODUCT_BUNDLE_IDENTIFIER = net.dataenvy.TribeBoard; };
            }
            """)
        #expect(root.entry("name")?.line == 5)
        #expect(root["name"]?.string == "Tribe \"Board\"")
        #expect(root["list"]?.array?.compactMap(\.string) == ["a", "b c", "<0fbd77>"])
        #expect(root["nested"]?.entry("PRODUCT_BUNDLE_IDENTIFIER")?.line == 7)
    }
}
