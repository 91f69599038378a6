# AtCoder Beginner Contest 043 - Unhappy Hacking (ABC Edit)
import sys


def main():

    s = sys.stdin.readline().rstrip()
    ans = []

    for c in s:
        if c=="B":
            if ans:
                ans.pop()
        else:
            ans.append(c)
    print("".join(ans))


if __name__=="__main__":
    main()
