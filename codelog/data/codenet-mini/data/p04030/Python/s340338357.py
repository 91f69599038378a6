# -*- coding: utf-8 -*-
# AtCoder Beginner Contest 043 - Unhappy Hacking (ABC Edit)
def main():
    s = str(input())
    ans = []
    for c in s:
        if c == "B":
            if ans:
                ans.pop()
        else:
            ans.append(c)
    print("".join(ans))


# solve
if __name__ == "__main__":
    main()
