import TribeBoardCommands

await AuditCommand.start()
