import Foundation
import Testing
import TribeBoardMigrate
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardRemote

/// The names `migrate legacy-types` gives copies: what lets a rerun find its own copies.
@Suite struct MigrationNamingTests {
    @Test func aCopyNameIsTheAppsUUIDFormDerivedOnlyFromTheOldName() throws {
        let name = try LegacyCopyName.of("3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        #expect(try name == LegacyCopyName.of("3F2504E0-4F89-11D3-9A0C-0305E82C3301"), "same old name, same copy name")
        let uuid = try #require(UUID(uuidString: name))
        #expect(uuid.uuidString == name, "uppercase and hyphenated, as the app writes ids")
        #expect(name.dropFirst(14).first == "8", "version 8 (RFC 9562 custom)")
        #expect(name != "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        let names = Set(try (0..<10_000).map { try LegacyCopyName.of("L\($0)") })
        #expect(names.count == 10_000, "no two old names share a copy name")
    }

    /// The name is SHA-256 of the old one, as `openssl dgst` computes it: its first 16 bytes with
    /// the version and variant bits set.
    @Test func aCopyNameIsSHA256AsOpenSSLComputesIt() throws {
        let folder = try TemporaryDirectory("copy-name")
        let message = try folder.write("message", "tribeboard-migrate legacy-types L1")
        let digest = try ProcessRunner.run("/usr/bin/openssl", ["dgst", "-sha256", "-r", message])
        try #require(digest.status == 0, "\(digest.stderr)")
        var hex = Array(digest.stdout.prefix(32))
        hex[12] = "8"
        let variant = try #require(Int(String(hex[16]), radix: 16))
        hex[16] = Character(String((variant & 0x3) | 0x8, radix: 16))
        let expected = String(hex).uppercased()
        #expect(try LegacyCopyName.of("L1").replacingOccurrences(of: "-", with: "") == expected)
    }

    /// Without SHA-256 there is no copy name: an error naming the record, never a name made
    /// another way (which would be another record's, and a rerun would copy everything again).
    @Test func noHashNoNameAnError() {
        #expect(throws: LegacyCopyNameError.hashUnavailable(legacyName: "L1")) { try LegacyCopyName.of("L1", digest: { _ in nil }) }
        #expect(throws: LegacyCopyNameError.hashUnavailable(legacyName: "L1")) { try LegacyCopyName.of("L1", digest: { _ in [1, 2, 3] }) }
    }
}
