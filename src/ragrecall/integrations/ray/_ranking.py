"""placeholder"""


def evaluate_run() -> None:
    raise NotImplementedError
