import ArgumentParser

/// `tribeboard`: every subcommand under one executable.
public struct TribeBoardCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tribeboard",
        abstract: "Operator tools for TribeBoard's families: provision, resync, audit and doctor.",
        subcommands: [ProvisionCommand.self, ResyncCommand.self, AuditCommand.self, DoctorCommand.self])

    public init() {}
}
