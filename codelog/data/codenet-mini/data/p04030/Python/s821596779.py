# AtCoder Beginner Contest 043 - Unhappy Hacking (ABC Edit)
def main():
    S = input().strip()
    ans = []
    for C in S:
        if C == "B":
            if ans:
                ans.pop()
        else:
            ans.append(C)
    print ("".join(ans))


if __name__ == "__main__":
    main()
