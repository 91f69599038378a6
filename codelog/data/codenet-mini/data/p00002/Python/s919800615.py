import sys
def calc(second):
    if second<10:
        return 1
    return 1+calc(second//10)
def solve():
    for z in sys.stdin:
        a, text = map(int, z.split(","))
        print(calc(a+text))
solve()
