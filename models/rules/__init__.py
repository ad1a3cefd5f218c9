"""The legal acts as data and the pure engines that read them: regimes, eligibility, fees, deadlines."""
