import sys

def main():
    n, *a = map(int, sys.stdin.read().split())
    s = sorted(a, reverse=True)
    ans = []
    for x in a:
        ans.append(s[1] if x == s[0] else s[0])
    print("\n".join(map(str, ans)))


main()
