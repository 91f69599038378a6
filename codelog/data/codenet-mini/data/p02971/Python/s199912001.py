# AtCoder Beginner Contest 134 - Exception Handling
def main():

    # solve
    n, *a = map(int, open(0).read().split())  # 解答
    b = sorted(a)
    for x in a:
        print(b[-1] if x != b[-1] else b[-2])


# read input
main()
