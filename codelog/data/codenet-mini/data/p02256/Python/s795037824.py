# 解答
def solve():
    seq, b = sorted(map(int, input().split()), reverse=True)
    o = lambda z, y: o(y, z%y) if y else z
    print(o(seq, b))


if __name__=="__main__":
    solve()