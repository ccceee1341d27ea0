"""The engines that work a run's records: this process, or Ray workers.

Also one record's thread, its progress, previews and pending reviews.
"""
