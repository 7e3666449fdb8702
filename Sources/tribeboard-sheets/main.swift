import TribeBoardCommands

await SheetsCommand.start()
