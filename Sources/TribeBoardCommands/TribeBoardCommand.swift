import ArgumentParser
import TribeBoardVersion

/// `--version` of every command: the release and the commit it was built from.
let toolkitVersion = BuildInfo.versionLine

/// `tribeboard`: every subcommand under one executable.
package struct TribeBoardCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "tribeboard",
        abstract: "Operator tools for TribeBoard's families: provision, resync, audit, doctor, migrate, sheets and recode.",
        version: toolkitVersion,
        subcommands: [
            ProvisionCommand.self, ResyncCommand.self, AuditCommand.self, DoctorCommand.self,
            MigrateCommand.self, SheetsCommand.self,
            RecodeCommand.self, RemoveCommand.self, MergeCommand.self, AdoptCommand.self
        ])

    package init() {}
}
