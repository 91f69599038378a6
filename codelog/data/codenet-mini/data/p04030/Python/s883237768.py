# coding: utf-8
import sys

def main():
    s = sys.stdin.readline().rstrip()
    ans = []
    for c in s:
        if c == "B":
            if ans:
                ans.pop(0)
        else:
            ans.append(c)
    print("".join(ans))


if __name__ == "__main__":
    # solve
    main()
