# A - 999
import sys

def main():
    s = sys.stdin.readline().strip()
    ans = ""  # 解答
    for c in s:
        if c=="1":
            ans += "9"
        elif c=="9":
            ans += "1"
        else:
            ans += c
    print(ans)


main()
