import Foundation
import TribeBoardTestSupport
import TribeBoardCloudKitEmulator

/// Emulators that behave like real containers, set up from the toolkit's schema file.
extension CloudKitEmulator.Options {
    /// Templates/cloudkit-schema.ckdb, as an operator imports it with `cktool import-schema`.
    package static let templateSchemaPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Templates/cloudkit-schema.ckdb").path

    package static func templateSchema() throws -> ContainerSchema {
        try EmulatorSetup.schema(templateSchemaPath)
    }

    /// Schemas enforced: development starts with `development`, production holds `production`.
    package static func enforcing(
        development: ContainerSchema, production: ContainerSchema = .empty
    ) -> Self {
        var options = Self()
        options.schema = .enforced(development: development, production: production)
        return options
    }

    /// A container set up as docs/cloudkit.md says: the schema imported and deployed.
    package static func templateContainer() throws -> Self {
        let schema = try templateSchema()
        return enforcing(development: schema, production: schema)
    }
}
