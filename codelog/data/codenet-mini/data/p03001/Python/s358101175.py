def main():
        W, right, x, c=map(int, open(0).read().split())
        print ("{:.6f}".format(W * right / 2), int(x == W / 2 or c == right / 2))


if __name__ == "__main__":
        main()
