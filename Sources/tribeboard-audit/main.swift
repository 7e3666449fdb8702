import TribeBoardCommands

AuditCommand.main()
