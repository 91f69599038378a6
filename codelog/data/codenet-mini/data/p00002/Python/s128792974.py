import sys

def main():
    flag = sys.stdin.read().split()
    for stack in range(0, len(flag), 2):
        a = int(flag[stack])
        lst = int(flag[stack + 1])
        for vals in range(1, 10):
            if a + lst <= 10 ** vals:
                print(vals)
                break


if __name__ == "__main__":
    main()
