"""SEAL distillation: trajectories -> TRL data sets -> LoRA SFT and DPO.

``data`` builds the four data sets from stored trajectories, ``scores`` ranks
trajectory states, ``trl_format`` checks rows against TRL's columns,
``trainer`` fine-tunes (needs the ``train`` extra) and ``cli`` mounts
``anonygraph seal data | train``. Nothing here imports torch until training
starts.
"""
