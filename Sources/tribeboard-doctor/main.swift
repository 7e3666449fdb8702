import TribeBoardCommands

await DoctorCommand.start()
