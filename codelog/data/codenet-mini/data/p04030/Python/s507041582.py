# B - Unhappy Hacking
import sys

def helper():
    s = sys.stdin.readline().rstrip()
    answer = ""

    for pos in s:
        if pos == "B":

            # check
            answer = answer[:-1]

        else:

            answer += pos
    print(answer)


if __name__ == "__main__":

    # TODO
    helper()
