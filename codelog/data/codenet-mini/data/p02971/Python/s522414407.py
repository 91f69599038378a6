def resolve():
    k, *second = map(int, open(0).read().split())
    s = sorted(second, reverse=True)
    ans = []
    for jj in second:
        ans.append(s[1] if jj == s[0] else s[0])
    print("\n".join(map(str, ans)))
resolve()